// `npm run soak`: the crash rounds of the fault suite, many times over, with the machine's cores
// kept busy: 5 rounds of 50 SIGKILLs of the bridge while 5,000 facts flow into a real Home
// Assistant, then 10 SIGKILLs of Home Assistant itself during delivery, then 10 clean restarts of
// it. Prints what was lost or repeated, writes it to test/bench/soak/results.md and the soak block
// of test/bench/README.md.
// Exit 1 on any loss, on a repeat not marked redelivered, and on any repeat after a clean restart.
import { type ChildProcess, spawn } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { EXIT_USAGE, usageLine } from "../../../src/cli-usage.js";
import { ApiSimulator } from "../../../src/simulator/index.js";
import {
  eventLogConfig,
  type HomeAssistantInstance,
  type MosquittoBroker,
  setUpMqttIntegration,
  startHomeAssistant,
  startMosquitto,
} from "../../lab/index.js";
import {
  arrivalsSeen,
  type HaKillsOutcome,
  runBridgeKills,
  runHomeAssistantKills,
} from "../../support/kill-scenario.js";
import { type MqttJournalWatch, watchMqttJournal } from "../../support/mqtt-journal-watch.js";
import { describeMachine, machineLine } from "../report/machine.js";
import { replaceReadmeBlock } from "../report/readme.js";

const usage = `Usage: npm run soak -- [--rounds N] [--ha-kills N] [--ha-restarts N] [--both-kills N] [--mqtt] [--no-load] [--help]
  --rounds N       rounds of 50 bridge SIGKILLs with 5,000 facts (default 5)
  --ha-kills N     SIGKILLs of Home Assistant during delivery, with 2,000 facts (default 10; 0 skips)
  --ha-restarts N  clean restarts of Home Assistant during delivery, with 2,000 facts (default 10; 0 skips)
  --both-kills N   SIGKILLs of Home Assistant and the bridge together during delivery, with 2,000 facts
                   (default 10; 0 skips)
  --mqtt           the bridge publishes through MQTT discovery, on a real Mosquitto: every fact's
                   message to the event entities is judged too, as the broker passed them on
  --no-load        without the two busy processes beside it`;

/** How many of the facts expected were derived from the children's days (a behavior declared). */
const derivedIn = (ids: readonly string[]) => ids.filter((id) => id.startsWith("derived:")).length;
const factsText = (ids: readonly string[]) => `${ids.length} facts (${derivedIn(ids)} derived)`;

const root = fileURLToPath(new URL("../../..", import.meta.url));
const KILLS = 50;
const FACTS = 5_000;
const HA_FACTS = 2_000;

function parse(argv: readonly string[]) {
  const options = {
    rounds: 5,
    haKills: 10,
    haRestarts: 10,
    bothKills: 10,
    mqtt: false,
    load: true,
    help: false,
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const number = () => {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 0) throw new Error(`${arg} needs a whole number`);
      return value;
    };
    if (arg === "--rounds") options.rounds = number();
    else if (arg === "--ha-kills") options.haKills = number();
    else if (arg === "--ha-restarts") options.haRestarts = number();
    else if (arg === "--both-kills") options.bothKills = number();
    else if (arg === "--no-load") options.load = false;
    else if (arg === "--mqtt") options.mqtt = true;
    else if (arg === "--help" || arg === "-h") options.help = true;
    else throw new Error(`unknown argument ${arg}`);
  }
  return options;
}

const say = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (ms: number) => `${Math.round(ms / 1000)} s`;

async function main(argv: readonly string[]): Promise<number> {
  let options: ReturnType<typeof parse>;
  try {
    options = parse(argv);
  } catch (error) {
    process.stderr.write(`${usageLine("npm run soak", (error as Error).message)}\n`);
    return EXIT_USAGE;
  }
  if (options.help) {
    say(usage);
    return 0;
  }
  const started = performance.now();
  const date = new Date();
  // Two processes that keep both cores busy, as other work on a shared CI machine would.
  const busy: ChildProcess[] = options.load
    ? [0, 1].map(() => spawn("yes", [], { stdio: ["ignore", "ignore", "ignore"] }))
    : [];
  const lines: string[] = [];
  const report = (line: string) => {
    say(line);
    lines.push(line);
  };
  let failed = false;
  try {
    const ha = await startHomeAssistant(eventLogConfig);
    let broker: MosquittoBroker | undefined;
    let watch: MqttJournalWatch | undefined;
    try {
      let env: Record<string, string> = {};
      if (options.mqtt) {
        broker = await startMosquitto();
        await setUpMqttIntegration(ha, broker);
        watch = await watchMqttJournal(broker.url);
        env = { REWARD_FACTS_PUBLISH: "mqtt", MQTT_URL: broker.url };
      }
      /**
       * MQTT mode: what the event entities' topic received for `journal` since `from`, as a line
       * (undefined otherwise), and whether it failed: a loss, a repeat not marked, or (`anyRepeat`) any repeat.
       */
      const judgeMqtt = (journal: readonly string[], from: number, anyRepeat: boolean) => {
        if (!watch) return undefined;
        const seen = arrivalsSeen(journal, watch.arrivals.slice(from));
        report(
          `  - as the event entities' MQTT topic received them: lost ${seen.missing.length}, repeated ` +
            `${seen.repeated.length}, of which unmarked ${seen.unmarkedRepeats.length} (marked redelivered: ` +
            `${seen.markedRedelivered})`,
        );
        for (const id of seen.missing) report(`    - lost ${id}`);
        for (const id of seen.unmarkedRepeats) report(`    - repeated without the mark ${id}`);
        return (
          seen.missing.length > 0 ||
          seen.unmarkedRepeats.length > 0 ||
          (anyRepeat && seen.repeated.length > 0)
        );
      };
      const mqttFrom = () => watch?.arrivals.length ?? 0;
      let lost = 0;
      let repeated = 0;
      let facts = 0;
      let derived = 0;
      let duringDelivery = 0;
      for (let round = 1; round <= options.rounds; round++) {
        const sim = await ApiSimulator.start({
          activity: false,
          rateLimitPerMinute: 1_000_000,
          seed: 7_000 + round,
        });
        const roundStart = performance.now();
        const from = mqttFrom();
        try {
          const outcome = await runBridgeKills({
            ha,
            sim,
            kills: KILLS,
            facts: FACTS,
            seed: 20261123 + round,
            env,
            // A user's pace: the soak's figures are what a household's bridge does.
            pace: "user",
          });
          lost += outcome.missing.length;
          repeated += outcome.repeated.length;
          facts += outcome.journal.length;
          derived += derivedIn(outcome.journal);
          duringDelivery += outcome.killedWhileDelivering;
          report(
            `- round ${round}: ${KILLS} SIGKILLs of the bridge (${outcome.killedWhileDelivering} during delivery), ` +
              `${factsText(outcome.journal)}: lost ${outcome.missing.length}, repeated ${outcome.repeated.length}` +
              ` (${seconds(performance.now() - roundStart)})`,
          );
          for (const id of outcome.missing) report(`  - lost ${id}`);
          for (const id of outcome.repeated) report(`  - repeated ${id}`);
          failed ||= judgeMqtt(outcome.journal, from, true) === true;
        } finally {
          await sim.stop();
        }
      }
      if (options.rounds > 0) {
        report(
          `**Bridge SIGKILLed ${options.rounds * KILLS} times (${duringDelivery} during delivery), ${facts} facts ` +
            `(${derived} derived from the children's days): ` +
            `lost ${lost}, repeated ${repeated}**`,
        );
        failed ||= lost > 0 || repeated > 0;
      }

      if (options.haKills > 0) {
        const from = mqttFrom();
        const outcome = await homeAssistantStops(
          ha,
          "kill",
          options.haKills,
          { sim: 7_100, moments: 20261124 },
          env,
        );
        report(
          `**Home Assistant SIGKILLed ${options.haKills} times (${outcome.killedWhileDelivering} during delivery), ` +
            `${factsText(outcome.journal)}: lost ${outcome.missing.length}, repeated ${outcome.repeated.length}, ` +
            `of which unmarked ${outcome.unmarkedRepeats.length}** (arrivals marked redelivered: ` +
            `${outcome.markedRedelivered}; ${seconds(outcome.ms)})`,
        );
        for (const id of outcome.missing) report(`  - lost ${id}`);
        for (const id of outcome.unmarkedRepeats) report(`  - repeated without the mark ${id}`);
        failed ||= outcome.missing.length > 0 || outcome.unmarkedRepeats.length > 0;
        failed ||= judgeMqtt(outcome.journal, from, false) === true;
      }

      if (options.haRestarts > 0) {
        // Home Assistant saves its states when it stops cleanly: nothing answered is owed. Judged
        // by what automations saw (the event log); a subscriber's view is reported beside it.
        const from = mqttFrom();
        const outcome = await homeAssistantStops(
          ha,
          "restart",
          options.haRestarts,
          { sim: 7_200, moments: 20261125 },
          env,
        );
        const seen = outcome.automations;
        report(
          `**Home Assistant restarted cleanly ${options.haRestarts} times (${outcome.killedWhileDelivering} during ` +
            `delivery), ${factsText(outcome.journal)}, as automations saw them: lost ${seen.missing.length}, ` +
            `repeated ${seen.repeated.length}, of which unmarked ${seen.unmarkedRepeats.length}** (arrivals marked ` +
            `redelivered: ${seen.markedRedelivered}; as a websocket subscriber saw them: lost ${outcome.missing.length}, ` +
            `repeated ${outcome.repeated.length}; ${seconds(outcome.ms)})`,
        );
        for (const id of seen.missing) report(`  - lost ${id}`);
        for (const id of seen.repeated) report(`  - repeated ${id}`);
        failed ||= seen.missing.length > 0 || seen.unmarkedRepeats.length > 0;
        failed ||= judgeMqtt(outcome.journal, from, false) === true;
      }

      if (options.bothKills > 0) {
        // A new bridge after each kill, on the data directory of the one killed.
        const from = mqttFrom();
        const outcome = await homeAssistantStops(
          ha,
          "kill-both",
          options.bothKills,
          { sim: 7_300, moments: 20261126 },
          env,
        );
        report(
          `**Home Assistant and the bridge SIGKILLed together ${options.bothKills} times ` +
            `(${outcome.killedWhileDelivering} during delivery), ${factsText(outcome.journal)}: lost ` +
            `${outcome.missing.length}, repeated ${outcome.repeated.length}, of which unmarked ` +
            `${outcome.unmarkedRepeats.length}** (arrivals marked redelivered: ${outcome.markedRedelivered}; ` +
            `${seconds(outcome.ms)})`,
        );
        for (const id of outcome.missing) report(`  - lost ${id}`);
        for (const id of outcome.unmarkedRepeats) report(`  - repeated without the mark ${id}`);
        failed ||= outcome.missing.length > 0 || outcome.unmarkedRepeats.length > 0;
        failed ||= judgeMqtt(outcome.journal, from, false) === true;
      }
    } finally {
      await watch?.close();
      await ha.stop();
      await broker?.dispose();
    }
  } finally {
    for (const hog of busy) hog.kill("SIGKILL");
  }

  const machine = await describeMachine();
  const block = [
    `Measured ${date.toISOString().slice(0, 16).replace("T", " ")} UTC on ${machineLine(machine)}. ` +
      `Command: \`npm run soak${argv.length ? ` -- ${argv.join(" ")}` : ""}\` (${seconds(performance.now() - started)}` +
      `${options.load ? ", two busy processes holding both cores" : ""}` +
      `${options.mqtt ? "; the bridge in MQTT mode, on a real Mosquitto" : ""}).`,
    "",
    ...lines,
  ].join("\n");
  // Only a full run stands for the project: a shorter one goes to a temporary file. MQTT mode has a
  // results file of its own; the README's soak block shows REST's.
  const full =
    options.rounds >= 5 &&
    options.haKills >= 10 &&
    options.haRestarts >= 10 &&
    options.bothKills >= 10 &&
    options.load;
  const results = options.mqtt ? "results-mqtt.md" : "results.md";
  const out = full ? join(root, "test/bench/soak", results) : join(tmpdir(), `reward-facts-soak-${results}`);
  await writeFile(out, `# Soak results${options.mqtt ? ", MQTT mode" : ""}\n\n${block}\n`);
  if (full && !options.mqtt) await replaceReadmeBlock(join(root, "test/bench/README.md"), block, "soak");
  say(`\nWritten to ${out}${full ? " and the soak block of test/bench/README.md" : ""}.`);
  return failed ? 1 : 0;
}

/** Home Assistant stopped `times` times (`how`) while 2,000 facts flow into it, on a simulator of its own. */
async function homeAssistantStops(
  ha: HomeAssistantInstance,
  how: "kill" | "restart" | "kill-both",
  times: number,
  seeds: { sim: number; moments: number },
  env: Record<string, string>,
): Promise<HaKillsOutcome & { ms: number }> {
  const sim = await ApiSimulator.start({ activity: false, rateLimitPerMinute: 1_000_000, seed: seeds.sim });
  const recorder = await ha.subscribeEvents("reward_facts_event");
  const started = performance.now();
  try {
    const outcome = await runHomeAssistantKills({
      ha,
      sim,
      recorder,
      kills: times,
      how,
      facts: HA_FACTS,
      seed: seeds.moments,
      env,
      pace: "user",
    });
    return { ...outcome, ms: performance.now() - started };
  } finally {
    await recorder.close();
    await sim.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(
      `soak failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  },
);
