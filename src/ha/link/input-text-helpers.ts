import type { CommandLink } from "./command-link.js";
import { HomeAssistantError } from "./errors.js";

// The bridge's chores with Home Assistant's `input_text` helpers (the delivery records, the
// household lease; the removal takes them away), in one place over the one link.

/** A helper as `input_text/list` gives it (the other fields of its settings too). */
export interface InputTextItem {
  id: string;
  name: string;
  max?: number;
  [setting: string]: unknown;
}

/** What a helper is made with. */
export interface InputTextSettings {
  /** The name it is created under, which sets its id (and its entity id) for good. */
  id: string;
  /** The name shown, given once it exists. */
  name: string;
  max: number;
  icon: string;
}

/** The helpers Home Assistant keeps; undefined when it has not set them up (recovery mode). */
export async function listInputTexts(link: CommandLink): Promise<InputTextItem[] | undefined> {
  try {
    return await link.command<InputTextItem[]>({ type: "input_text/list" });
  } catch (error) {
    if (error instanceof HomeAssistantError && error.code === "unknown_command") return undefined;
    throw error;
  }
}

/** Makes a helper; resolves with its id (Home Assistant's slug of the creation name). */
export async function createInputText(link: CommandLink, settings: InputTextSettings): Promise<string> {
  const { id, ...shown } = settings;
  const item = await link.command<InputTextItem>({
    type: "input_text/create",
    name: id,
    max: settings.max,
    icon: settings.icon,
  });
  // An update is validated as a whole new item: what it leaves out goes back to its default
  // (a max of 100, no icon), so it says everything again.
  await link.command({ type: "input_text/update", input_text_id: item.id, ...shown });
  return item.id;
}

/** Changes a helper's settings: `settings` are all of them (what is left out goes back to its default). */
export async function updateInputText(
  link: CommandLink,
  id: string,
  settings: Record<string, unknown>,
): Promise<void> {
  await link.command({ ...settings, type: "input_text/update", input_text_id: id });
}

export async function deleteInputText(link: CommandLink, id: string): Promise<void> {
  await link.command({ type: "input_text/delete", input_text_id: id });
}

/** Bookkeeping, not something to show: kept off auto-generated dashboards. */
export async function hideEntity(link: CommandLink, entityId: string): Promise<void> {
  await link.command({ type: "config/entity_registry/update", entity_id: entityId, hidden_by: "user" });
}
