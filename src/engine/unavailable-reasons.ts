// The `reason` attribute users see on an unavailable child's entities.
export const unavailableReasons = {
  rulesNotSynced: "no rules synced yet",
  notCovered: "child no longer covered by the token",
  tokenRejected: "API token rejected: create a new token in the app",
  apiUnreachable: "API unreachable",
} as const;
