// The shape every language's texts take, apart from the table of the languages (texts.ts): that
// table imports each language's file, and each language's file takes its shape from here, so that
// no file imports the one that imports it.
import type { en } from "./en.js";

/** Every text of the bridge in one language: the shape of English's, strings everywhere. */
export type Texts = {
  [Part in keyof typeof en]: (typeof en)[Part] extends string
    ? string
    : { [Key in keyof (typeof en)[Part]]: string };
};

/** A language's blueprints: by file, the text at each path of the English one (`blueprint.name`). */
export type BlueprintTexts = Readonly<Record<string, Readonly<Record<string, string>>>>;
