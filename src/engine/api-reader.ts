import type { ReadEventsPage } from "../api/events-page.js";
import type { Child, Today } from "../api/schemas.js";

/** The part of the API client the engine uses. */
export interface ApiReader {
  listChildren(signal?: AbortSignal): Promise<Child[]>;
  getToday(childId: string, signal?: AbortSignal): Promise<Today>;
  getEvents(childId: string, since?: string, signal?: AbortSignal): Promise<ReadEventsPage>;
}
