import type { Logger } from "../../log/logger.js";
import type { ChildIdentity } from "../entities/entities.js";
import type { EntityNames } from "../entities/entity-names.js";
import type { ConfigApi } from "../link/config-api.js";
import type { HomeAssistantLink } from "../link/connection.js";
import { languages, type Texts } from "../texts/texts.js";
import { assistAnswersAutomation, oldAutomationSyntax, QUESTIONS } from "./assist-answers-config.js";
import { assistSummaryScript } from "./assist-summary-config.js";
import { isAtLeast } from "./bridge-blueprints.js";
import type { SinkPart } from "./sink-part.js";
import { STALE_READINGS, voiceChildren } from "./voice-children.js";

// Assist out of the box (the `assist` option): the bridge keeps, in the household's language, an
// automation that answers the parents' and the children's questions (assist-answers-config.ts)
// and a script that gives assistants the children's figures (assist-summary-config.ts), both
// written again when the children or the language change and removed when `assist` is off (and by
// the removal step). A user's own automation from the assist_answers blueprint answers instead:
// the bridge then keeps no automation of its own, so that nothing answers twice.

/** What of an automation's configuration tells whether it answers the bridge's questions. */
interface AutomationConfig {
  use_blueprint?: { path?: string };
  triggers?: Array<{ command?: string | string[] }>;
  trigger?: Array<{ command?: string | string[] }>;
}

/** Every sentence the bridge's automation hears, in every language the bridge speaks. */
const BRIDGE_SENTENCES = new Set(
  Object.values(languages).flatMap((texts) =>
    QUESTIONS.flatMap((question) => [
      ...texts.voice[question].split("|"),
      ...texts.voice[`${question}_i`].split("|"),
    ]),
  ),
);

interface AutomationState {
  entity_id: string;
  attributes: { id?: string };
}

export interface AssistAnswersOptions {
  link: HomeAssistantLink;
  config: ConfigApi;
  ready: () => boolean;
  texts: () => Texts;
  names: EntityNames;
  logger: Logger;
  /** The `assist` option. */
  enabled: boolean;
  mode: () => "rest" | "mqtt";
  /** How often a child's day is read (`today_interval_seconds`): three of them make an answer stale. */
  todayIntervalSeconds: number;
}

/** The automation and the script the bridge keeps under a naming (the removal step takes them). */
export function assistantItems(names: EntityNames): [["automation", string], ["script", string]] {
  return [
    ["automation", `${names.prefix}_assist_answers`],
    ["script", `${names.prefix}_summary`],
  ];
}

/** The release from which automations are written `triggers:`/`actions:` (and read back so). */
const MODERN_SYNTAX_FROM = [2024, 10] as const;

export class AssistAnswers implements SinkPart {
  readonly name = "assist answers";
  readonly #o: AssistAnswersOptions;
  #children: readonly ChildIdentity[] = [];
  /** What was said once in the log: a user's own automation answers, a failure. */
  readonly #said = new Set<string>();

  constructor(options: AssistAnswersOptions) {
    this.#o = options;
  }

  get automationId(): string {
    return assistantItems(this.#o.names)[0][1];
  }

  get scriptId(): string {
    return assistantItems(this.#o.names)[1][1];
  }

  async children(children: readonly ChildIdentity[]): Promise<void> {
    this.#children = children;
    if (this.#o.ready()) await this.#keep();
  }

  async running(): Promise<void> {
    await this.#keep();
  }

  async language(): Promise<void> {
    if (this.#o.ready()) await this.#keep();
  }

  /** The demo's stop: nothing of its own stays. */
  async remove(): Promise<void> {
    await this.#removeAll().catch((error: unknown) => this.#sayOnce("remove", error));
  }

  async #keep(): Promise<void> {
    try {
      if (!this.#o.enabled) {
        // `assist` off: what the bridge offered assistants goes.
        await this.#removeAll();
        return;
      }
      if (this.#children.length === 0) return;
      const texts = this.#o.texts();
      const input = {
        texts,
        children: voiceChildren(this.#children, this.#o.names, this.#o.mode()),
        status: this.#o.names.status,
        staleAfterSeconds: STALE_READINGS * this.#o.todayIntervalSeconds,
      };
      await this.#keepScript(assistSummaryScript(input));
      if (!this.#o.link.hasComponent("conversation")) {
        // No conversation agent (a configuration without default_config): nothing would hear them.
        if (!this.#said.has("no agent")) {
          this.#said.add("no agent");
          this.#o.logger.info(
            "this Home Assistant has no conversation agent: Assist's answers are not kept in it",
          );
        }
        return;
      }
      if (await this.#usersOwnAnswers()) {
        if (await this.#o.config.remove("automation", this.automationId))
          this.#o.logger.info(
            "an automation from the assist_answers blueprint answers: removed the bridge's own",
          );
        if (!this.#said.has("own")) {
          this.#said.add("own");
          this.#o.logger.info(
            "your automation from the assist_answers blueprint answers Assist's questions: the bridge keeps none of its own",
          );
        }
        return;
      }
      const modern = assistAnswersAutomation(input);
      await this.#write(
        "automation",
        this.automationId,
        isAtLeast(this.#o.link.haVersion, MODERN_SYNTAX_FROM) ? modern : oldAutomationSyntax(modern),
      );
    } catch (error) {
      this.#sayOnce("keep", error);
    }
  }

  async #keepScript(script: Record<string, unknown>): Promise<void> {
    if (!this.#o.link.hasComponent("script")) return;
    const created = await this.#write("script", this.scriptId, script);
    if (!created) return;
    // Offered to Assist once, when made: a user who later hides it keeps it hidden.
    await this.#o.link.command({
      type: "homeassistant/expose_entity",
      assistants: ["conversation"],
      entity_ids: [`script.${this.scriptId}`],
      should_expose: true,
    });
    this.#o.logger.info(
      { script: `script.${this.scriptId}` },
      "offered the children's summary to assistants",
    );
  }

  /** Writes the item when it differs from what Home Assistant holds; true when it was not there. */
  async #write(kind: "automation" | "script", id: string, config: Record<string, unknown>): Promise<boolean> {
    const held = await this.#o.config.read(kind, id);
    const wanted = kind === "automation" ? { id, ...config } : config;
    if (held && canonical(held) === canonical(wanted)) return false;
    await this.#o.config.write(kind, id, wanted);
    if (!held)
      this.#o.logger.info({ kind, id }, "made Assist's answers about the children in Home Assistant");
    return !held;
  }

  /**
   * Whether an automation of the user's answers the same questions: made from the assist_answers
   * blueprint (2024.3 hands back its `use_blueprint`; later releases the blueprint's expanded
   * config), or hearing one of the bridge's sentences in any language it speaks.
   */
  async #usersOwnAnswers(): Promise<boolean> {
    const states = await this.#o.link.command<AutomationState[]>({ type: "get_states" });
    for (const state of states) {
      if (!state.entity_id.startsWith("automation.") || state.attributes.id === this.automationId) continue;
      const { config } = await this.#o.link
        .command<{ config?: AutomationConfig }>({ type: "automation/config", entity_id: state.entity_id })
        .catch(() => ({ config: undefined }));
      if (!config) continue;
      if (config.use_blueprint?.path?.endsWith("assist_answers.yaml")) return true;
      const heard = [...(config.triggers ?? []), ...(config.trigger ?? [])].flatMap((trigger) =>
        trigger.command === undefined ? [] : [trigger.command].flat(),
      );
      if (heard.some((sentence) => BRIDGE_SENTENCES.has(sentence))) return true;
    }
    return false;
  }

  async #removeAll(): Promise<void> {
    const automation = await this.#o.config.remove("automation", this.automationId);
    const script = await this.#o.config.remove("script", this.scriptId);
    if (automation || script)
      this.#o.logger.info({ automation, script }, "removed what the bridge offered assistants");
  }

  #sayOnce(what: string, error: unknown): void {
    if (this.#said.has(what)) return;
    this.#said.add(what);
    this.#o.logger.warn(
      { err: error },
      "Assist's answers about the children could not be kept in Home Assistant; trying again at the next change",
    );
  }
}

/** JSON with its keys in order: what Home Assistant hands back may order them otherwise. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(
          Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1)),
        )
      : item,
  );
}
