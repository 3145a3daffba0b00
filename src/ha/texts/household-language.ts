import type { Logger } from "../../log/logger.js";
import { formatMoment } from "./moment.js";
import { type Texts, type TextsChoice, textsFor } from "./texts.js";

/**
 * The language the bridge writes in for a household: Home Assistant's own (its general settings),
 * followed when it changes; English before Home Assistant has said, and for a language the bridge
 * has no texts of (said once, in the log). Log lines stay English.
 */
export class HouseholdLanguage {
  readonly #logger: Logger;
  #choice: TextsChoice = textsFor("en");
  /** The language Home Assistant last asked for, as it spelled it. */
  #asked: string | undefined;

  constructor(logger: Logger) {
    this.#logger = logger;
  }

  get texts(): Texts {
    return this.#choice.texts;
  }

  /** The code of the language the texts are in (`en`, `fr`). */
  get code(): string {
    return this.#choice.code;
  }

  /** An instant as the family reads it (`timeZone`: the household's). */
  moment(at: number, timeZone: string | undefined): string {
    return formatMoment(at, this.#asked ?? this.#choice.code, timeZone);
  }

  /** Home Assistant's language, as read now; true when the texts change with it. */
  follow(asked: string | undefined): boolean {
    if (asked === undefined || asked === this.#asked) return false;
    this.#asked = asked;
    const choice = textsFor(asked);
    if (choice.fellBack)
      this.#logger.warn(
        { language: asked },
        "the bridge has no texts in Home Assistant's language yet: it writes in English (a file of src/ha/texts/ adds one)",
      );
    else this.#logger.info({ language: choice.code }, "writing in Home Assistant's language");
    const changed = choice.code !== this.#choice.code;
    this.#choice = choice;
    return changed;
  }
}
