/**
 * The web table's entry. Inside Discord (the Activity's iframe carries `frame_id`) the Embedded
 * App SDK is loaded and signs the member in; outside Discord the demo's member picker does, and
 * anywhere else the page says to open the table from Discord.
 */
import "./style.css";
import { preferredLang, t } from "./i18n";
import { apiBase } from "./net";
import { loadConfig, pickMember, prepare, signInWithDiscord } from "./start";

async function main(): Promise<void> {
  const params = new URLSearchParams(window.location.search);
  const inDiscord = params.has("frame_id");
  const base = apiBase(inDiscord);
  const app = prepare(preferredLang(params));
  app.status(t("connecting"));
  const config = await loadConfig(app, base);
  if (!config) {
    return;
  }
  if (inDiscord) {
    const { DiscordSDK } = await import("@discord/embedded-app-sdk");
    await signInWithDiscord(new DiscordSDK(config.client_id), app, base, config, params);
  } else if (config.demo) {
    pickMember(app, base, config, params);
  } else {
    app.status(t("open_in_discord"));
  }
}

void main();
