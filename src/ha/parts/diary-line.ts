import type { ApiEvent, ApiEventType } from "../../api/schemas.js";
import { fill, type Texts } from "../texts/texts.js";

// A fact of the journal as a diary reads it: a line in the household's language, the fact's own
// words (a behavior's label, a reward's name) quoted, never its raw type. Pure.

/** What the diary keeps of a fact: enough to write its line again in another language. */
export interface DiaryEntry {
  id: string;
  /** When the fact happened (the API's `at`), not when it reached Home Assistant. */
  at: string;
  type: ApiEventType;
  label: string | null;
  minutes: number | null;
  cheer: string | null;
}

/** A label as long as a line can hold (the app's labels are short; a state's line is 255 at most). */
const MAX_LABEL_LENGTH = 100;

export function diaryEntryOf(fact: ApiEvent): DiaryEntry {
  const entry: DiaryEntry = {
    id: fact.id,
    at: fact.at,
    type: fact.type,
    label: null,
    minutes: null,
    cheer: null,
  };
  switch (fact.type) {
    case "behavior_validated":
    case "menu_item_consumed":
      return { ...entry, label: fact.label?.trim().slice(0, MAX_LABEL_LENGTH) || null };
    case "session_started":
      return { ...entry, minutes: fact.minutes };
    case "cheer_sent":
      return { ...entry, cheer: fact.cheer };
  }
}

/** "Léa : « Faire ses devoirs » validé" (the time is the card's to write, in Home Assistant's zone). */
export function diaryLine(texts: Texts, firstName: string, entry: DiaryEntry): string {
  return fill(texts.diary.line, { child: firstName, fact: factWords(texts, entry) });
}

function factWords(texts: Texts, entry: DiaryEntry): string {
  const words = texts.diary;
  switch (entry.type) {
    case "behavior_validated":
      return entry.label
        ? fill(words.behavior_validated, { label: entry.label })
        : words.behavior_validated_unnamed;
    case "menu_item_consumed":
      return entry.label
        ? fill(words.menu_item_consumed, { label: entry.label })
        : words.menu_item_consumed_unnamed;
    case "session_started":
      return entry.minutes
        ? fill(words.session_started, { minutes: entry.minutes })
        : words.session_started_unknown;
    case "cheer_sent":
      return fill(words.cheer_sent, { cheer: cheerWord(texts, entry.cheer) });
  }
}

function cheerWord(texts: Texts, cheer: string | null): string {
  const words: Record<string, string> = {
    bravo: texts.diary.cheer_bravo,
    super: texts.diary.cheer_super,
    seen: texts.diary.cheer_seen,
  };
  return (cheer && words[cheer]) || texts.diary.cheer_bravo;
}
