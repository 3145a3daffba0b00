import { baseUrlProblem, tokenProblem } from "../api/endpoint-rules.js";
import { logLevels } from "../log/logger.js";
import * as z from "../zod.js";

// The bridge's options, as the add-on's options.json names them (snake_case at the edge). The
// only home of their defaults: config.yaml's schema and DOCS.md describe these, the code reads them.

const checked = (problem: (value: string) => string | undefined) =>
  z.string().check(
    z.superRefine((value, ctx) => {
      const message = problem(value);
      if (message) ctx.addIssue({ code: "custom", message });
    }),
  );

const emptyAsUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

export const optionsSchema = z.object({
  api_token: checked(tokenProblem),
  api_base_url: checked(baseUrlProblem),
  api_legacy_base_url: z.pipe(z.transform(emptyAsUndefined), z.optional(checked(baseUrlProblem))),
  events_interval_seconds: z._default(z.int().check(z.minimum(10), z.maximum(3600)), 30),
  today_interval_seconds: z._default(z.int().check(z.minimum(15), z.maximum(3600)), 60),
  children: z._default(z.array(z.string().check(z.trim(), z.minLength(1))), []),
  /** A fact older than this when it reaches Home Assistant is marked `replayed` (a catch-up). */
  replayed_after_minutes: z._default(z.int().check(z.minimum(1), z.maximum(10_080)), 10),
  /**
   * Minutes remaining at which a `minutes_low` fact fires, once each per session: a warning before
   * the screen goes off.
   */
  minutes_low_thresholds: z._default(z.array(z.int().check(z.minimum(1), z.maximum(240))), [10, 5]),
  log_level: z._default(z.enum(logLevels), "info"),
  /**
   * How entities reach Home Assistant: `mqtt`, registry entities through MQTT discovery (a device
   * per child); `rest`, states written through its API; `auto`, MQTT when a broker is known.
   */
  publish: z._default(z.enum(["auto", "mqtt", "rest"]), "auto"),
  /**
   * Whether the bridge makes (and keeps up to date) a "Rewards" dashboard in Home Assistant. Off
   * by default: a dashboard appears in everyone's sidebar, which is the household's choice.
   */
  dashboard: z._default(z.boolean(), false),
  /**
   * Instead of running, remove everything the bridge made in Home Assistant and the broker, then
   * stop (ha/removal.ts): the step before uninstalling. The same as `--remove` standalone.
   */
  remove_from_home_assistant: z._default(z.boolean(), false),
  /**
   * Whether the bridge offers the children's entities to Assist (voice and text), with aliases in
   * the household's language. A user's own choices are never overwritten either way. What is
   * exposed reaches whichever conversation agent the household uses, a cloud LLM included: off
   * keeps the children's names and figures at home (DOCS says so where the option is described).
   */
  assist: z._default(z.boolean(), true),
});

/**
 * The options of the removal step, which never calls the API: its token and address are not
 * needed (a parent whose token was revoked need not invent one), and not read when given.
 */
export const removalOptionsSchema = z.omit(optionsSchema, {
  api_token: true,
  api_base_url: true,
  api_legacy_base_url: true,
});

export type BridgeOptions = z.infer<typeof optionsSchema>;
export type BridgeOptionsInput = z.input<typeof optionsSchema>;
