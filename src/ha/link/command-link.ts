/** What talks to Home Assistant through websocket commands (HomeAssistantLink, or a test's socket). */
export interface CommandLink {
  command<T>(message: { type: string; [key: string]: unknown }): Promise<T>;
}
