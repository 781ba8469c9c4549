#!/usr/bin/python3
"""A loopback SMTP sink for the relay test (tests/integration/smtp_relay_test.cpp), on Debian's
python3-aiosmtpd.

    /usr/bin/python3 smtp_sink.py OUT

Listens on 127.0.0.1 on a free port and prints "listening PORT" once it accepts. Logins are
AUTH PLAIN/LOGIN as relay/s3cret, allowed without TLS (loopback). A recipient at refuse.example is
refused with 550. Every accepted letter is appended to OUT as one JSON line: {mail_from, rcpt_tos,
ehlo, login, headers: {from, to, subject (decoded), message-id, in-reply-to, references}, body (the
decoded text)}. Stops on SIGTERM.
"""
import asyncio
import email
import email.policy
import json
import sys

from aiosmtpd.smtp import SMTP, AuthResult

OUT = sys.argv[1]


def authenticate(server, session, envelope, mechanism, auth_data):
    ok = auth_data.login == b"relay" and auth_data.password == b"s3cret"
    return AuthResult(success=ok, auth_data=auth_data.login.decode() if ok else None)


class Sink:
    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address.lower().endswith("@refuse.example"):
            return "550 5.7.1 the sink refuses mail for refuse.example"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        msg = email.message_from_bytes(envelope.content, policy=email.policy.default)
        names = ("from", "to", "subject", "message-id", "in-reply-to", "references")
        record = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "ehlo": session.host_name,
            "login": session.auth_data if session.authenticated else None,
            "headers": {n: str(msg[n]) for n in names if msg[n] is not None},
            "body": msg.get_content().replace("\r\n", "\n"),
        }
        with open(OUT, "a", encoding="utf-8") as f:
            f.write(json.dumps(record) + "\n")
        return "250 2.0.0 Ok: queued by the sink"


async def main():
    loop = asyncio.get_running_loop()
    server = await loop.create_server(
        lambda: SMTP(Sink(), authenticator=authenticate, auth_require_tls=False,
                     hostname="sink.test"),
        "127.0.0.1", 0)
    print("listening", server.sockets[0].getsockname()[1], flush=True)
    await server.serve_forever()


asyncio.run(main())
