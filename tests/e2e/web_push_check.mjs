// web_push_check.mjs — the browser's side of a Web Push delivery, written with implementations
// nobody here wrote: Node's crypto for the subscription's keys and the VAPID signature, the
// http_ece package (RFC 8188 / RFC 8291) to decrypt the message. Used by
// tests/integration/notify_test.cpp.
//
//   node web_push_check.mjs keys
//       prints {"private", "p256dh", "auth"} (base64url): a fresh P-256 key pair and auth secret
//   node web_push_check.mjs check <file>
//       <file>: {"body" (hex), "private", "auth", "authorization", "content_encoding"}
//       prints {"payload": the decrypted text, "jwt": {header, claims}, "signature_valid",
//               "k": the key of the Authorization header}
import crypto from 'node:crypto';
import fs from 'node:fs';
import ece from 'http_ece';

const b64u = (buf) => Buffer.from(buf).toString('base64url');

const mode = process.argv[2];
if (mode === 'keys') {
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.generateKeys();
  console.log(JSON.stringify({
    private: b64u(ecdh.getPrivateKey()),
    p256dh: b64u(ecdh.getPublicKey(null, 'uncompressed')),
    auth: b64u(crypto.randomBytes(16)),
  }));
} else if (mode === 'check') {
  const input = JSON.parse(fs.readFileSync(process.argv[3], 'utf8'));
  const ecdh = crypto.createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(input.private, 'base64url'));
  const payload = ece.decrypt(Buffer.from(input.body, 'hex'), {
    version: 'aes128gcm',
    privateKey: ecdh,
    authSecret: input.auth,
  }).toString('utf8');

  // Authorization: vapid t=<jwt>, k=<key> (RFC 8292 §3)
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(input.authorization);
  if (!m) throw new Error('not a vapid Authorization header: ' + input.authorization);
  const [jwt, k] = [m[1], m[2]];
  const [h, c, s] = jwt.split('.');
  const raw = Buffer.from(k, 'base64url');
  const key = crypto.createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(raw.subarray(1, 33)), y: b64u(raw.subarray(33, 65)) },
    format: 'jwk',
  });
  const signatureValid = crypto.verify('sha256', Buffer.from(h + '.' + c), {
    key,
    dsaEncoding: 'ieee-p1363',
  }, Buffer.from(s, 'base64url'));
  console.log(JSON.stringify({
    payload,
    jwt: {
      header: JSON.parse(Buffer.from(h, 'base64url').toString('utf8')),
      claims: JSON.parse(Buffer.from(c, 'base64url').toString('utf8')),
    },
    signature_valid: signatureValid,
    k,
  }));
} else {
  console.error('usage: web_push_check.mjs keys | check <file>');
  process.exit(2);
}
