// A scripted XMPP client (@xmpp/client) for tests/integration/xmpp_test.cpp.
//
//   node xmpp_client.mjs login  --service xmpp://127.0.0.1:PORT --domain D --user U --password P
//   node xmpp_client.mjs room   --service ... --domain D --user U --password P --room JID
//                               --send TEXT --expect TEXT [--after NICK] [--timeout S]
//   node xmpp_client.mjs direct --service ... --domain D --user U --password P --to JID
//                               --send TEXT --expect TEXT [--timeout S]
//
// Both connect over STARTTLS (the test server's certificate is self-signed: checks are off) and
// log in with SASL PLAIN. `login` prints `online JID` and exits 0, or `refused CONDITION` and
// exits 1. `room` joins the room as nick U (with --after, waits until occupant NICK is in the
// room too), sends TEXT as a groupchat message, then waits for a
// groupchat message whose body is the expected text: it prints one JSON line per groupchat
// message seen ({"from", "body"}), then `received` and exits 0, or `timeout` and exits 1.
// `direct` sends TEXT to JID as a chat message, then waits the same way for a chat message whose
// body is the expected text, printing one JSON line per chat message seen.
import { client, xml } from "@xmpp/client";

process.env.NODE_TLS_REJECT_UNAUTHORIZED = "0";

const [command, ...rest] = process.argv.slice(2);
const opts = {};
for (let i = 0; i + 1 < rest.length; i += 2) opts[rest[i].replace(/^--/, "")] = rest[i + 1];

const xmpp = client({
  service: opts.service,
  domain: opts.domain,
  username: opts.user,
  password: opts.password,
  resource: "e2e",
});
xmpp.reconnect.stop();
xmpp.on("error", () => {}); // a refused login is reported by start() below

const deadline = setTimeout(
  () => {
    console.log("timeout");
    process.exit(1);
  },
  Number(opts.timeout || 30) * 1000,
);

let address;
try {
  address = await xmpp.start();
} catch (err) {
  console.log(`refused ${err.condition || err.message}`);
  process.exit(1);
}
console.log(`online ${address.toString()}`);

if (command === "login") {
  clearTimeout(deadline);
  await xmpp.stop();
  process.exit(0);
}

// Prints a message of `type` with a body ({"from", "body"}); exits 0 when it is the expected one.
const seen = async (stanza, type) => {
  if (!stanza.is("message") || (stanza.attrs.type || "normal") !== type) return;
  const body = stanza.getChildText("body");
  if (body === null || stanza.getChild("delay")) return; // subject, history
  console.log(JSON.stringify({ from: stanza.attrs.from, body }));
  if (body === opts.expect) {
    console.log("received");
    clearTimeout(deadline);
    await xmpp.stop();
    process.exit(0);
  }
};

if (command === "direct") {
  xmpp.on("stanza", (stanza) => seen(stanza, "chat"));
  await xmpp.send(xml("presence"));
  await xmpp.send(xml("message", { to: opts.to, type: "chat" }, xml("body", {}, opts.send)));
}

if (command === "room") {
  const room = opts.room;
  let joined = false,
    other = !opts.after,
    sent = false;
  const sendOnce = async () => {
    if (!joined || !other || sent) return;
    sent = true;
    await xmpp.send(xml("message", { to: room, type: "groupchat" }, xml("body", {}, opts.send)));
  };
  xmpp.on("stanza", async (stanza) => {
    if (stanza.is("presence") && stanza.attrs.from === `${room}/${opts.user}`) {
      if (stanza.attrs.type === "error") {
        console.log(`join refused ${stanza.toString()}`);
        process.exit(1);
      }
      joined = true;
      await sendOnce();
    }
    if (stanza.is("presence") && opts.after && stanza.attrs.from === `${room}/${opts.after}`) {
      console.log(`occupant ${opts.after}`);
      other = true;
      await sendOnce();
    }
    await seen(stanza, "groupchat");
  });
  await xmpp.send(
    xml("presence", { to: `${room}/${opts.user}` }, xml("x", { xmlns: "http://jabber.org/protocol/muc" },
      xml("history", { maxstanzas: "0" }))),
  );
}
