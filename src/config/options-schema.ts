import { z } from "zod";
import { baseUrlProblem, tokenProblem } from "../api/endpoint-rules.js";
import { logLevels } from "../log/logger.js";

// The bridge's options, as the add-on's options.json names them (snake_case at the edge). The
// only home of their defaults: config.yaml's schema and DOCS.md describe these, the code reads them.

const checked = (problem: (value: string) => string | undefined) =>
  z.string().superRefine((value, ctx) => {
    const message = problem(value);
    if (message) ctx.addIssue({ code: "custom", message });
  });

const emptyAsUndefined = (value: unknown) => (value === "" || value === null ? undefined : value);

export const optionsSchema = z.object({
  api_token: checked(tokenProblem),
  api_base_url: checked(baseUrlProblem),
  api_legacy_base_url: z.preprocess(emptyAsUndefined, checked(baseUrlProblem).optional()),
  events_interval_seconds: z.number().int().min(10).max(3600).default(30),
  today_interval_seconds: z.number().int().min(15).max(3600).default(60),
  children: z.array(z.string().trim().min(1)).default([]),
  /** A fact older than this when it reaches Home Assistant is marked `replayed` (a catch-up). */
  replayed_after_minutes: z.number().int().min(1).max(10_080).default(10),
  log_level: z.enum(logLevels).default("info"),
  /**
   * How entities reach Home Assistant: `mqtt`, registry entities through MQTT discovery (a device
   * per child); `rest`, states written through its API; `auto`, MQTT when a broker is known.
   */
  publish: z.enum(["auto", "mqtt", "rest"]).default("auto"),
  /**
   * Whether the bridge makes (and keeps up to date) a "Rewards" dashboard in Home Assistant. Off
   * by default: a dashboard appears in everyone's sidebar, which is the household's choice.
   */
  dashboard: z.boolean().default(false),
});

export type BridgeOptions = z.infer<typeof optionsSchema>;
export type BridgeOptionsInput = z.input<typeof optionsSchema>;
