// Debian's headless Chromium as this machine needs it, for the browser scripts (console.mjs,
// apps_sandbox.mjs): no sandbox (the tests run as root on CI), no GPU, and none of Chromium's
// own traffic (the network is closed, and background connections fail noisily). CHROMIUM names
// another executable.
export function launchChromium(chromium) {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
