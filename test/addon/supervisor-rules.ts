// The Supervisor's rules for an add-on, written down here because a fresh clone has no Supervisor
// and no linter to ask: from supervisor/apps/validate.py (formerly addons/validate.py) and
// supervisor/apps/options.py, plus the add-on linter's own checks (defaults spelled out, obsolete
// keys). Encoded as data so that each test reads as the rule it checks.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

export const repoRoot = fileURLToPath(new URL("../..", import.meta.url));

export const readText = (path: string) => readFileSync(join(repoRoot, path), "utf8");
export const readYaml = (path: string) => parse(readText(path)) as unknown;

export type Manifest = Record<string, unknown> & {
  options: Record<string, unknown>;
  schema: Record<string, unknown>;
};

export const readManifest = () => readYaml("config.yaml") as Manifest;
export const packageVersion = () => (JSON.parse(readText("package.json")) as { version: string }).version;

export const REQUIRED_KEYS = ["name", "version", "slug", "description", "arch"];
/** RE_SLUG of the Supervisor. */
export const SLUG = /^[-_.A-Za-z0-9]+$/;
export const SUPPORTED_ARCHS = ["aarch64", "amd64"];
/** Still accepted by the Supervisor, deprecated since Home Assistant 2025.12 (a linter warning). */
export const DEPRECATED_ARCHS = ["armhf", "armv7", "i386"];
/** The Supervisor's `docker_image` validator: a repository path, no tag, no digest. */
export const IMAGE = /^([a-zA-Z\-.:\d{}]+\/)*?([-\w{}]+)\/([-\w{}]+)$/;

/** Every optional key of the manifest with the default the Supervisor gives it when absent. */
export const DEFAULTS: Record<string, unknown> = {
  startup: "application",
  boot: "auto",
  init: true,
  advanced: false,
  stage: "stable",
  ingress: false,
  ingress_port: 8099,
  ingress_stream: false,
  panel_icon: "mdi:puzzle",
  panel_admin: true,
  host_network: false,
  host_pid: false,
  host_ipc: false,
  host_uts: false,
  host_dbus: false,
  udev: false,
  tmpfs: false,
  map: [],
  apparmor: true,
  full_access: false,
  audio: false,
  video: false,
  gpio: false,
  usb: false,
  uart: false,
  devicetree: false,
  kernel_modules: false,
  realtime: false,
  hassio_api: false,
  hassio_role: "default",
  homeassistant_api: false,
  stdin: false,
  legacy: false,
  docker_api: false,
  auth_api: false,
  backup: "hot",
  options: {},
  schema: {},
  ulimits: {},
  timeout: 10,
  journald: false,
  breaking_versions: [],
};

/** Optional keys without a default. */
const OPTIONAL_WITHOUT_DEFAULT = [
  "machine",
  "url",
  "ports",
  "ports_description",
  "webui",
  "ingress_entry",
  "panel_title",
  "homeassistant",
  "devices",
  "environment",
  "privileged",
  "services",
  "discovery",
  "backup_exclude",
  "backup_pre",
  "backup_post",
  "restore_pre",
  "restore_post",
  "image",
];

/** The Supervisor drops unknown keys silently: a misspelt key would just not work. */
export const KNOWN_KEYS = new Set([...REQUIRED_KEYS, ...Object.keys(DEFAULTS), ...OPTIONAL_WITHOUT_DEFAULT]);

/** Keys the linter refuses: `watchdog` is replaced by the image's HEALTHCHECK. */
export const OBSOLETE_KEYS = ["watchdog", "codenotary", "auto_uart", "snapshot", "snapshot_exclude"];

/** RE_SCHEMA_ELEMENT of supervisor/apps/options.py, with its groups numbered. */
export const OPTION_TYPE =
  /^(?:(bool|email|url|port)|device(?:\(subsystem=[a-z]+\))?|(str|password|int)(?:\((\d+)?,(\d+)?\))?|float(?:\(([\d.]+)?,([\d.]+)?\))?|match\((.*)\)|list\((.+)\))(\?)?$/;

export interface OptionType {
  /** bool, email, url, port, str, password, int, float, match, list or device. */
  base: string;
  optional: boolean;
  min?: number;
  max?: number;
  /** The values of list(a|b|c). */
  values?: string[];
  /** A list option: `[type]` in the schema. */
  multiple: boolean;
}

/** Reads one schema value (`int(10,3600)?`, `["str?"]`), or undefined when the Supervisor would refuse it. */
export function parseOptionType(schemaValue: unknown): OptionType | undefined {
  if (Array.isArray(schemaValue)) {
    if (schemaValue.length !== 1) return undefined;
    const inner = parseOptionType(schemaValue[0]);
    return inner && !inner.multiple ? { ...inner, multiple: true } : undefined;
  }
  if (typeof schemaValue !== "string") return undefined;
  const m = OPTION_TYPE.exec(schemaValue);
  if (!m) return undefined;
  const number = (text: string | undefined) => (text === undefined ? undefined : Number(text));
  const base =
    m[1] ??
    m[2] ??
    (schemaValue.startsWith("float")
      ? "float"
      : schemaValue.startsWith("match")
        ? "match"
        : schemaValue.startsWith("list")
          ? "list"
          : "device");
  const min = number(m[3] ?? m[5]);
  const max = number(m[4] ?? m[6]);
  return {
    base,
    optional: m[9] === "?",
    ...(min === undefined ? {} : { min }),
    ...(max === undefined ? {} : { max }),
    ...(m[8] === undefined ? {} : { values: m[8].split("|") }),
    multiple: false,
  };
}

/**
 * What the Supervisor does with the options before it writes /data/options.json (AddonOptions in
 * supervisor/apps/options.py), for the types this add-on uses: unknown keys dropped, null refused as
 * a missing option, each value checked and coerced, then every non-optional key required.
 */
export function validateLikeSupervisor(
  schema: Record<string, unknown>,
  options: Record<string, unknown>,
): { options: Record<string, unknown> } | { error: string } {
  const out: Record<string, unknown> = {};
  const single = (type: OptionType, value: unknown, key: string): unknown => {
    if (value === null || value === undefined) throw new Error(`Missing required option '${key}'`);
    switch (type.base) {
      case "str":
      case "password":
        return String(value);
      case "int": {
        const n = typeof value === "number" ? value : Number.parseInt(String(value), 10);
        if (!Number.isInteger(n)) throw new Error(`expected int for '${key}'`);
        if ((type.min !== undefined && n < type.min) || (type.max !== undefined && n > type.max))
          throw new Error(`value must be within range for '${key}'`);
        return n;
      }
      case "url":
        if (!/^[a-z][a-z0-9+.-]*:\/\/[^/\s]+/i.test(String(value)))
          throw new Error(`expected a URL for '${key}'`);
        return value;
      case "bool": {
        // voluptuous' Boolean(), which the Supervisor uses: a boolean, or these words and numbers.
        if (typeof value === "boolean") return value;
        const word = String(value).toLowerCase();
        if (["1", "true", "yes", "on", "enable"].includes(word)) return true;
        if (["0", "false", "no", "off", "disable"].includes(word)) return false;
        throw new Error(`expected boolean for '${key}'`);
      }
      case "list":
        if (!type.values?.includes(String(value)))
          throw new Error(`value must be one of ${type.values} for '${key}'`);
        return String(value);
      default:
        throw new Error(`type ${type.base} of '${key}' is not modelled here`);
    }
  };
  try {
    for (const [key, value] of Object.entries(options)) {
      const type = parseOptionType(schema[key]);
      if (!type) continue;
      if (type.multiple) {
        if (!Array.isArray(value)) throw new Error(`Invalid list for option '${key}'`);
        out[key] = value.map((element) => single(type, element, key));
      } else out[key] = single(type, value, key);
    }
    for (const key of Object.keys(schema)) {
      if (!(key in out) && !parseOptionType(schema[key])?.optional)
        throw new Error(`Missing option '${key}' in root`);
    }
  } catch (error) {
    return { error: (error as Error).message };
  }
  return { options: out };
}

/**
 * What the Supervisor checks of a custom repository's repository.yaml (SCHEMA_REPOSITORY_CONFIG of
 * supervisor/store/validate.py): a name, and optionally a url and a maintainer. One line per problem.
 */
export function repositoryProblems(repository: unknown): string[] {
  if (typeof repository !== "object" || repository === null || Array.isArray(repository))
    return ["repository.yaml: not a mapping"];
  const { name, url, maintainer } = repository as Record<string, unknown>;
  return [
    ...(typeof name === "string" && name.trim() !== "" ? [] : ["name: required, a string"]),
    ...(url === undefined || (typeof url === "string" && /^https?:\/\/[^/\s]+/.test(url))
      ? []
      : ["url: must be a URL"]),
    ...(maintainer === undefined || typeof maintainer === "string" ? [] : ["maintainer: must be a string"]),
  ];
}

/**
 * An add-on manifest read against the Supervisor's schema (SCHEMA_ADDON_CONFIG) and the linter's
 * extra rules, as encoded above: one line per problem, none for a manifest the Supervisor accepts.
 */
export function manifestProblems(manifest: unknown): string[] {
  if (typeof manifest !== "object" || manifest === null || Array.isArray(manifest))
    return ["config.yaml: not a mapping"];
  const m = manifest as Record<string, unknown>;
  const problems: string[] = [];
  for (const key of REQUIRED_KEYS) {
    const value = m[key];
    if (value === undefined || value === null || value === "" || (Array.isArray(value) && value.length === 0))
      problems.push(`${key}: required`);
  }
  if (m.version !== undefined && typeof m.version !== "string") problems.push("version: must be a string");
  if (typeof m.slug === "string" && !SLUG.test(m.slug)) problems.push(`slug: ${m.slug} is not a slug`);
  if (m.arch !== undefined) {
    const archs = Array.isArray(m.arch) ? m.arch : [m.arch];
    for (const arch of archs)
      if (!SUPPORTED_ARCHS.includes(String(arch)) && !DEPRECATED_ARCHS.includes(String(arch)))
        problems.push(`arch: unknown architecture ${String(arch)}`);
  }
  for (const key of Object.keys(m)) {
    if (!KNOWN_KEYS.has(key)) problems.push(`${key}: unknown key, dropped by the Supervisor`);
    if (OBSOLETE_KEYS.includes(key)) problems.push(`${key}: obsolete`);
    if (key in DEFAULTS && JSON.stringify(m[key]) === JSON.stringify(DEFAULTS[key]))
      problems.push(`${key}: spelt out at its default value`);
  }
  if (m.image !== undefined && (typeof m.image !== "string" || !IMAGE.test(m.image)))
    problems.push(`image: ${String(m.image)} is not an image name without a tag`);
  // vol.Url(): a scheme and a host. The store links it as the app's website.
  if (m.url !== undefined && (typeof m.url !== "string" || !/^[a-z][a-z0-9+.-]*:\/\/[^/\s]+/i.test(m.url)))
    problems.push(`url: ${String(m.url)} is not a URL`);
  // [version_tag]: versions an update must not cross by itself (no automatic update from below
  // one). Strings, as `version` is: YAML would read 0.10 as the number 0.1.
  if (m.breaking_versions !== undefined) {
    const versions = m.breaking_versions;
    if (!Array.isArray(versions)) problems.push("breaking_versions: must be a list");
    else
      for (const version of versions)
        if (typeof version !== "string" || version.trim() === "")
          problems.push(`breaking_versions: ${String(version)} is not a version string`);
  }
  const schema = (m.schema ?? {}) as Record<string, unknown>;
  const options = (m.options ?? {}) as Record<string, unknown>;
  for (const [key, value] of Object.entries(schema))
    if (!parseOptionType(value)) problems.push(`schema.${key}: ${JSON.stringify(value)} is no option type`);
  for (const key of Object.keys(options))
    if (!(key in schema)) problems.push(`options.${key}: not in the schema`);
  return problems;
}
