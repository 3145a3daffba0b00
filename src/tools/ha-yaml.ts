import { parse, parseDocument, type ScalarTag, stringify } from "yaml";

/** A `!input name` of a blueprint, kept as itself so that it can be followed and written back. */
export class Input {
  constructor(readonly name: string) {}
}

const inputTag: ScalarTag = {
  tag: "!input",
  identify: (value) => value instanceof Input,
  resolve: (name) => new Input(name),
  stringify: (item) => (item.value as Input).name,
};

/** Blueprint or automation YAML, `!input` tags included. */
export function parseHaYaml(text: string): unknown {
  return parse(text, { customTags: [inputTag] });
}

/** The same as a document, comments and layout kept, to change a few values of it. */
export function parseHaYamlDocument(text: string) {
  return parseDocument(text, { customTags: [inputTag] });
}

/** YAML as Home Assistant reads it: 1.1, where a bare `on` would be true, with `!input` tags. */
export function stringifyHaYaml(value: unknown): string {
  return stringify(value, { version: "1.1", customTags: [inputTag] });
}
