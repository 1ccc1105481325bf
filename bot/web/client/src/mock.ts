/**
 * The same start-up as inside Discord, with the Embedded App SDK's own mock (`DiscordSDKMock`)
 * answering its commands: the handshake runs in a plain browser, for tests. The channel comes
 * from the page's `channel_id` parameter, as Discord gives the Activity its channel.
 */
import "./style.css";
import { DiscordSDKMock } from "@discord/embedded-app-sdk";
import { preferredLang, t } from "./i18n";
import { apiBase } from "./net";
import { loadConfig, prepare, signInWithDiscord } from "./start";

async function main(): Promise<void> {
  const params = new URLSearchParams(window.location.search);
  const base = apiBase(false);
  const app = prepare(preferredLang(params));
  app.status(t("connecting"));
  const config = await loadConfig(app, base);
  if (!config) {
    return;
  }
  const sdk = new DiscordSDKMock(
    config.client_id,
    params.get("guild_id"),
    params.get("channel_id"),
    null,
  );
  await signInWithDiscord(sdk, app, base, config, params);
}

void main();
