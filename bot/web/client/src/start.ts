/**
 * How the page comes to a table. Inside Discord: the Embedded App SDK's handshake (ready, then
 * authorize with the `identify` scope, the code exchanged at the bot for the bot's own session,
 * then authenticate), and the WebSocket for the Activity's channel: the bot binds the session to
 * the channel of the Activity's instance once Discord says the member is in it, never to an id
 * the page names. Outside Discord, in the demo only, a member picker stands in for Discord's
 * sign-in and its channel. The page is told who it is by the bot;
 * it never tells the bot. When the bot no longer knows the session (a restart, an expired
 * session), the page signs in the same way again by itself: `authorize` again inside Discord,
 * the member it picked in the demo.
 */
import type { IDiscordSDK } from "@discord/embedded-app-sdk";
import { paintDeck } from "./cards";
import { lang, rememberLang, setLang, t } from "./i18n";
import { ApiError, Connection, getJson, postJson } from "./net";
import type { Config, Lang, LoginAnswer, TokenAnswer } from "./protocol";
import { App } from "./table";

export function connect(
  app: App,
  base: string,
  session: string,
  tableId: number | null,
  signInAgain: () => Promise<string | null>,
): Connection {
  const connection = new Connection(
    Connection.url(base),
    { session, tableId, lang: lang() },
    {
      message: (message) => app.receive(message),
      connected: () => app.connection(true),
      dropped: () => {
        connection.remember(app.currentTable(), lang());
        app.connection(false);
      },
      signInAgain: async () => {
        connection.remember(app.currentTable(), lang());
        app.connection(false);
        return signInAgain();
      },
    },
  );
  app.connectOutbox({
    watch: (id) => connection.send({ type: "watch", table_id: id }),
    join: (id) => connection.send({ type: "join", table_id: id }),
    act: (id, version, notation) => connection.send({ type: "act", table_id: id, version, notation }),
    changeLang: (next: Lang) => {
      rememberLang(next);
      connection.remember(app.currentTable(), next);
      connection.restart();
    },
  });
  connection.open();
  return connection;
}

function tableParam(params: URLSearchParams): number | null {
  const asked = Number(params.get("table"));
  return Number.isInteger(asked) && asked > 0 ? asked : null;
}

/** Discord's handshake, with the real SDK or its mock; then the table's socket. */
export async function signInWithDiscord(
  sdk: IDiscordSDK,
  app: App,
  base: string,
  config: Config,
  params: URLSearchParams,
): Promise<void> {
  app.status(t("signing_in"));
  const signIn = async (): Promise<string> => {
    const { code } = await sdk.commands.authorize({
      client_id: config.client_id,
      response_type: "code",
      state: "",
      prompt: "none",
      scope: ["identify"],
    });
    // the bot asks Discord for this instance's channel, and whether the member is in it
    const token = await postJson<TokenAnswer>(base, "api/token", {
      code,
      instance_id: sdk.instanceId,
    });
    await sdk.commands.authenticate({ access_token: token.access_token });
    return token.session;
  };
  try {
    await sdk.ready();
    const session = await signIn();
    connect(app, base, session, tableParam(params), () => signIn().catch(() => null));
  } catch (error) {
    const words = error instanceof ApiError ? error.message : t("sign_in_failed");
    app.status(words, () => void signInWithDiscord(sdk, app, base, config, params));
  }
}

/** The demo's member picker (the server offers it only in the demo). */
export function pickMember(app: App, base: string, config: Config, params: URLSearchParams): void {
  const members = config.members ?? [];
  const login = async (userId: string): Promise<void> => {
    app.status(t("connecting"));
    const signIn = async (): Promise<string> =>
      (
        await postJson<LoginAnswer>(base, "api/demo/login", {
          user_id: userId,
          channel_id: params.get("channel_id"),
        })
      ).session;
    try {
      const session = await signIn();
      connect(app, base, session, tableParam(params), () => signIn().catch(() => null));
    } catch (error) {
      app.status(error instanceof ApiError ? error.message : t("sign_in_failed"), () =>
        pickMember(app, base, config, params),
      );
    }
  };
  const asked = params.get("member");
  if (asked && members.some((member) => member.id === asked)) {
    void login(asked);
    return;
  }
  app.picker(members, (member) => void login(member.id));
}

export async function loadConfig(app: App, base: string): Promise<Config | null> {
  try {
    return await getJson<Config>(base, "api/config");
  } catch (error) {
    app.status(error instanceof ApiError ? error.message : t("sign_in_failed"), () => location.reload());
    return null;
  }
}

export function prepare(preferred: Lang): App {
  setLang(preferred);
  paintDeck();
  const root = document.getElementById("app");
  if (!root) {
    throw new Error("the page has no #app");
  }
  return new App(root);
}
