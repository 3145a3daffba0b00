import { afterEach, describe, expect, it } from "vitest";
import { debianMirror, parseDeb822Sources, parseSourcesList } from "./apt-mirror.js";
import { installRecipe } from "./home-assistant-versions.js";
import { withHarnessConstraints } from "./home-assistant-wheel.js";
import { findHostPython, satisfies } from "./host-python.js";
import { choosePythonRuntime } from "./python-runtime.js";

// The parts of the harness's install that decide where Home Assistant's Python comes from; the
// install itself is proven by every suite that starts a Home Assistant.

describe("the Debian mirror the harness builds a root from", () => {
  const deb822 = `
Types: deb
# http://snapshot.debian.org/archive/debian/20250520T000000Z
URIs: http://mirror.example/debian/
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: http://mirror.example/debian-security
Suites: bookworm-security
Components: main
`;

  it("is the machine's own archive for its release, from deb822 sources", () => {
    expect(debianMirror(parseDeb822Sources(deb822), "bookworm")).toBe("http://mirror.example/debian");
  });

  it("skips security, source-only, disabled and third-party entries, in one-line sources too", () => {
    const sources = [
      ...parseSourcesList(`
# deb http://commented.example/debian bookworm main
deb-src http://sources.example/debian bookworm main
deb [arch=amd64 signed-by=/usr/share/keyrings/x.gpg] https://third.example/apt stable main
deb http://security.example/debian-security bookworm-security main
`),
      ...parseDeb822Sources("Types: deb\nURIs: http://off.example/debian\nSuites: bookworm\nEnabled: no\n"),
      ...parseSourcesList("deb [trusted=yes] http://one-line.example/debian bookworm main contrib\n"),
    ];
    expect(debianMirror(sources, "bookworm")).toBe("http://one-line.example/debian");
    expect(debianMirror(sources, "trixie")).toBeUndefined();
  });
});

describe("the Python a release needs", () => {
  const current = installRecipe("2026.11.0").python;
  const oldest = installRecipe("2024.3.3").python;

  it("is the range of the wheel's Requires-Python", () => {
    expect(["3.14.2", "3.14.8"].map((v) => satisfies(v, current))).toEqual([true, true]);
    expect(["3.14.1", "3.13.9", "3.15.0", "4.0.0"].map((v) => satisfies(v, current))).toEqual([
      false,
      false,
      false,
      false,
    ]);
    expect(["3.11.0", "3.11.7", "3.12.0", "3.10.9"].map((v) => satisfies(v, oldest))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });

  const variable = installRecipe("2026.11.0").pythonVariable;
  const saved = process.env[variable];
  afterEach(() => {
    if (saved === undefined) delete process.env[variable];
    else process.env[variable] = saved;
  });

  it("fails, saying what it found and how to provide one, when the named Python does not fit", async () => {
    const python311 = (await findHostPython(["python3.11", "python3"])).found;
    process.env[variable] = python311?.path ?? "/nonexistent/python3";
    await expect(choosePythonRuntime(installRecipe("2026.11.0"))).rejects.toThrow(
      new RegExp(`needs Python >= 3\\.14\\.2, < 3\\.15; ${variable} names .*python`),
    );
  });
});

describe("the constraints a release installs under", () => {
  const wheel = "# Automatically generated\nnumpy==2.3.2\npymicro-vad==1.0.1\nPyYAML==6.0.3\nsome_pkg==1.0\n";

  it("are the wheel's, a harness pin replacing the wheel's pin of the same package, whatever its spelling", () => {
    expect(withHarnessConstraints(wheel, ["pymicro_vad==2.1.0", "Some-Pkg==2.0", "josepy==1.14.0"])).toBe(
      "# Automatically generated\nnumpy==2.3.2\nPyYAML==6.0.3\n\n" +
        "# Added by the test harness (home-assistant-versions.ts)\npymicro_vad==2.1.0\nSome-Pkg==2.0\njosepy==1.14.0\n",
    );
  });

  it("are the wheel's alone when the harness pins nothing", () => {
    expect(withHarnessConstraints(wheel, [])).toBe(wheel);
  });
});
