import { randomUUID } from "node:crypto";
import { type Dispatcher, request } from "undici";
import { z } from "zod";
import { HaSocket } from "./ha-websocket.js";

const onboardingUserSchema = z.object({ auth_code: z.string().min(1) });
const tokenSchema = z.object({ access_token: z.string().min(1) });

/** The owner onboarding creates: an administrator, as the first user always is. */
export const TEST_USER = { name: "Test", username: "test", password: "test-pass-1" } as const;

/**
 * Onboards a fresh Home Assistant (its first user is the owner, an admin) and returns a
 * long-lived access token for that user: the kind of token a standalone bridge is given.
 * Never calls /api/onboarding/core_config, which sets up integrations that need the network.
 */
export async function onboardAndGetToken(url: string, dispatcher: Dispatcher): Promise<string> {
  const clientId = `${url}/`;
  const user = await postFor(url, "/api/onboarding/users", dispatcher, {
    headers: { "content-type": "application/json" },
    body: JSON.stringify({
      client_id: clientId,
      name: TEST_USER.name,
      username: TEST_USER.username,
      password: TEST_USER.password,
      language: "en",
    }),
  });
  const { auth_code } = onboardingUserSchema.parse(user);

  // OAuth's token endpoint takes a form, not JSON.
  const form = new URLSearchParams({
    grant_type: "authorization_code",
    code: auth_code,
    client_id: clientId,
  });
  const tokens = await postFor(url, "/auth/token", dispatcher, {
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: form.toString(),
  });
  const { access_token } = tokenSchema.parse(tokens);

  // The short-lived token expires in 30 minutes; a long-lived one outlives any test run and restarts.
  const socket = await HaSocket.open(`${url.replace(/^http/, "ws")}/api/websocket`, access_token);
  try {
    return z
      .string()
      .min(1)
      .parse(
        await socket.command({
          type: "auth/long_lived_access_token",
          client_name: `tests-${randomUUID()}`,
          lifespan: 365,
        }),
      );
  } finally {
    await socket.close();
  }
}

async function postFor(
  url: string,
  path: string,
  dispatcher: Dispatcher,
  init: { headers: Record<string, string>; body: string },
): Promise<unknown> {
  const response = await request(`${url}${path}`, { method: "POST", dispatcher, ...init });
  const text = await response.body.text();
  if (response.statusCode !== 200) {
    // 403 "User step already done" means the config directory was not fresh.
    throw new Error(`onboarding: POST ${path} answered ${response.statusCode}: ${text.slice(0, 300)}`);
  }
  return JSON.parse(text) as unknown;
}
