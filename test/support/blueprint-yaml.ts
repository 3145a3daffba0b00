// The blueprints' YAML, `!input` tags included, read and written as npm run blueprints does.
export { Input, parseHaYaml, stringifyHaYaml } from "../../src/tools/ha-yaml.js";
