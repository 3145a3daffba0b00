import type { UnavailableReason } from "./sink.js";

/**
 * How each reason reads where a person sees it (the `reason` attribute of an unavailable entity,
 * the demo's table): one wording for every sink, so a dashboard and a log say the same thing.
 */
const texts: Record<UnavailableReason, string> = {
  rules_not_synced: "no rules synced yet",
  not_covered: "child no longer covered by the token",
  token_rejected: "API token rejected: create a new token in the app",
  api_unreachable: "API unreachable",
  bridge_stopped: "the bridge stopped",
};

export function reasonText(reason: UnavailableReason): string {
  return texts[reason];
}

export const unavailableReasonKinds = Object.keys(texts) as UnavailableReason[];
