// Checks the deployment files of the kubernetes profile (profiles/kubernetes/) without helm, a
// cluster or a container engine. Run by tests/scripts/kubernetes_deploy_test.sh with the node of
// tests/e2e/node_modules (scripts/e2e-deps.sh).
//
//   node kubernetes_check.mjs check <repo> [--kube DIR] [--profile FILE]
//       everything below, on <repo>/profiles/kubernetes (or DIR) and <repo>/profiles/kubernetes.yaml
//   node kubernetes_check.mjs validate FILE...
//       only the Kubernetes schemas, on every object of the YAML files
//   node kubernetes_check.mjs render <chart> [key=value...]
//       prints the chart's rendered templates (the renderer below), as `helm template` would
//   node kubernetes_check.mjs pod <manifests> <outdir>
//       writes the Deployment's args, env and mounted profile for running it without a cluster
//
// What `check` does, each line printed as "ok ..." or "FAIL ...", exit 1 on any FAIL:
//  1. Every object of manifests/*.yaml is validated against the Kubernetes OpenAPI schema of its
//     kind (kubernetes-models 5.1.0, whose classes carry the compiled schemas: types, required
//     fields, enums, formats; unknown fields are not errors there, as in the API's own schemas).
//  2. The chart's templates are rendered with values.yaml, release `platform` and the one value
//     that has no default (secret.configSecretKey), the rendered objects validated the same way
//     and compared field by field with the plain manifests (Secret values aside: the manifests hold
//     placeholders). Then named checks of what must agree: replicas, ports, probes, env names,
//     profile, image, and values.yaml's own fields against the manifests.
//  3. The ConfigMap's kubernetes.yaml, in the manifests and in the chart (files/), equals
//     profiles/kubernetes.yaml byte for byte (said and skipped when that file is absent).
//  4. The Dockerfile: every path it COPYs or RUNs exists in the repository, base images are
//     tagged Debian 12, apt installs without recommends and cleans its lists, the last stage runs as
//     the manifests' non-root user, EXPOSE and CMD match the Deployment.
//
// The renderer. Helm templates are Go templates (text/template + Sprig); this is a small
// interpreter of only the constructs the chart uses, so a template using anything else fails
// here, naming it, rather than being checked wrongly:
//   {{ pipeline }}  {{- trims white space before, -}} after;  {{/* comment */}}
//   {{ if pipeline }} ... {{ else }} ... {{ end }};  {{ define "name" }} ... {{ end }} (_helpers.tpl)
//   pipelines `a | f x | g`, the piped value is the last argument; operands: .Values.a.b,
//   .Release.Name, .Release.Namespace, .Chart.Name, .Chart.Version, .Chart.AppVersion, `.`,
//   "strings", numbers; functions: include NAME CTX, quote, toYaml, indent N, nindent N,
//   required MSG VALUE, not, .Files.Get PATH (a file under the chart folder).
// A missing value is an error (Helm would print nothing or "<no value>"), which catches typos.
import fs from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import YAML from "yaml";

// ---------------------------------------------------------------- schemas (kubernetes-models)

async function modelFor(apiVersion, kind) {
  if (typeof apiVersion !== "string" || typeof kind !== "string")
    throw new Error("no apiVersion/kind");
  if (!/^[A-Za-z0-9.]+(\/[A-Za-z0-9]+)?$/.test(apiVersion) || !/^[A-Za-z]+$/.test(kind))
    throw new Error(`not a Kubernetes apiVersion/kind: ${apiVersion} ${kind}`);
  const spec = `kubernetes-models/${apiVersion}/${kind}`; // core group: v1/Service
  let mod;
  try {
    mod = await import(spec);
  } catch {
    throw new Error(`no schema for ${apiVersion} ${kind} in kubernetes-models`);
  }
  const model = mod[kind];
  if (!model) throw new Error(`no schema for ${apiVersion} ${kind} in kubernetes-models`);
  return model;
}

// Returns "" or what is wrong with one object.
async function schemaErrors(obj) {
  if (obj === null || typeof obj !== "object" || Array.isArray(obj)) return "not a mapping";
  try {
    const Model = await modelFor(obj.apiVersion, obj.kind);
    new Model(obj).validate();
    if (!obj.metadata || typeof obj.metadata.name !== "string" || !obj.metadata.name)
      return "metadata.name is missing";
    return "";
  } catch (e) {
    return e.message.replace(/\s+/g, " ").slice(0, 600);
  }
}

function parseYamlDocs(text, where) {
  const docs = YAML.parseAllDocuments(text, { uniqueKeys: true });
  const out = [];
  for (const d of docs) {
    if (d.errors.length) throw new Error(`${where}: ${d.errors[0].message}`);
    const v = d.toJS();
    if (v !== null && v !== undefined) out.push(v);
  }
  return out;
}

// ---------------------------------------------------------------- the template renderer

function tokenize(src, file) {
  const parts = [];
  let i = 0;
  while (i < src.length) {
    const open = src.indexOf("{{", i);
    if (open < 0) {
      parts.push({ t: "text", v: src.slice(i) });
      break;
    }
    parts.push({ t: "text", v: src.slice(i, open) });
    const close = src.indexOf("}}", open);
    if (close < 0) throw new Error(`${file}: unclosed {{`);
    let inner = src.slice(open + 2, close);
    const trimLeft = inner.startsWith("-") && /^-\s/.test(inner);
    const trimRight = /\s-$/.test(inner);
    if (trimLeft) inner = inner.slice(1);
    if (trimRight) inner = inner.slice(0, -1);
    parts.push({ t: "action", v: inner.trim(), trimLeft, trimRight });
    i = close + 2;
  }
  for (let k = 0; k < parts.length; k++) {
    const p = parts[k];
    if (p.t !== "action") continue;
    if (p.trimLeft && k > 0 && parts[k - 1].t === "text") parts[k - 1].v = parts[k - 1].v.replace(/\s+$/, "");
    if (p.trimRight && k + 1 < parts.length && parts[k + 1].t === "text")
      parts[k + 1].v = parts[k + 1].v.replace(/^\s+/, "");
  }
  return parts.filter((p) => !(p.t === "action" && /^\/\*[\s\S]*\*\/$/.test(p.v)));
}

// Builds a tree: [{t:"text"}, {t:"out", pipe}, {t:"if", pipe, then, else}], defines collected.
function parse(parts, file, defines) {
  let k = 0;
  function block(stopAt) {
    const nodes = [];
    while (k < parts.length) {
      const p = parts[k++];
      if (p.t === "text") {
        if (p.v) nodes.push(p);
        continue;
      }
      const word = p.v.split(/\s+/)[0];
      if (word === "end" || word === "else") {
        if (!stopAt.includes(word)) throw new Error(`${file}: unexpected {{ ${p.v} }}`);
        return { nodes, stop: word };
      }
      if (word === "if") {
        const node = { t: "if", pipe: p.v.slice(2).trim(), then: [], else: [] };
        const a = block(["end", "else"]);
        node.then = a.nodes;
        if (a.stop === "else") node.else = block(["end"]).nodes;
        nodes.push(node);
      } else if (word === "define") {
        const m = /^define\s+"([^"]+)"$/.exec(p.v);
        if (!m) throw new Error(`${file}: bad define: ${p.v}`);
        defines[m[1]] = block(["end"]).nodes;
      } else if (["range", "with", "block", "template", "else if"].includes(word) || word.startsWith("$")) {
        throw new Error(`${file}: {{ ${word} }} is not supported by this renderer (see its header)`);
      } else {
        nodes.push({ t: "out", pipe: p.v });
      }
    }
    if (stopAt.length) throw new Error(`${file}: missing {{ end }}`);
    return { nodes, stop: null };
  }
  return block([]).nodes;
}

function splitOutside(s, sep) {
  const out = [];
  let cur = "",
    q = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '"' && s[i - 1] !== "\\") q = !q;
    if (!q && c === sep) {
      out.push(cur);
      cur = "";
    } else cur += c;
  }
  out.push(cur);
  return out.map((x) => x.trim()).filter((x) => x !== "");
}

function words(cmd) {
  const out = [];
  const re = /"(?:[^"\\]|\\.)*"|\S+/g;
  let m;
  while ((m = re.exec(cmd))) out.push(m[0]);
  return out;
}

function truthy(v) {
  if (v === undefined || v === null || v === false || v === 0 || v === "") return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === "object") return Object.keys(v).length > 0;
  return true;
}

function show(v) {
  if (v === undefined || v === null) throw new Error("prints a missing value");
  if (typeof v === "object") throw new Error("prints a map or list (use toYaml)");
  return String(v);
}

function makeRenderer(chartDir, values, release) {
  const chart = YAML.parse(fs.readFileSync(path.join(chartDir, "Chart.yaml"), "utf8"));
  const defines = {};
  const root = {
    Values: values,
    Release: { Name: release, Namespace: "default", Service: "Helm" },
    Chart: { Name: chart.name, Version: chart.version, AppVersion: chart.appVersion },
    Files: {
      Get: (p) => {
        const f = path.join(chartDir, p);
        if (!fs.existsSync(f)) throw new Error(`.Files.Get "${p}": no such file in the chart`);
        return fs.readFileSync(f, "utf8");
      },
    },
  };
  const indent = (n, s) => " ".repeat(n) + String(s).split("\n").join("\n" + " ".repeat(n));
  const funcs = {
    include: (name, ctx) => {
      if (!defines[name]) throw new Error(`include "${name}": not defined`);
      return run(defines[name], ctx);
    },
    quote: (v) => JSON.stringify(v === undefined || v === null ? "" : String(v)),
    toYaml: (v) => YAML.stringify(v, { lineWidth: 0 }).replace(/\n$/, ""),
    indent: (n, s) => indent(n, s),
    nindent: (n, s) => "\n" + indent(n, s),
    required: (msg, v) => {
      if (v === undefined || v === null || v === "") throw new Error(`required: ${msg}`);
      return v;
    },
    not: (v) => !truthy(v),
  };
  function operand(tok, dot) {
    if (tok.startsWith('"')) return JSON.parse(tok);
    if (/^-?\d+$/.test(tok)) return Number(tok);
    if (tok === ".") return dot;
    if (tok.startsWith(".")) {
      let v = dot;
      for (const key of tok.slice(1).split(".")) {
        if (v === null || typeof v !== "object" || !(key in v)) throw new Error(`${tok}: no such value`);
        v = v[key];
      }
      return v;
    }
    throw new Error(`operand '${tok}' is not supported by this renderer`);
  }
  function evalPipe(pipe, dot) {
    let piped;
    let first = true;
    for (const cmd of splitOutside(pipe, "|")) {
      const w = words(cmd);
      if (w.some((x) => x.startsWith("(")))
        throw new Error(`parenthesised pipelines are not supported by this renderer: ${pipe}`);
      let v;
      if (funcs[w[0]]) {
        const args = w.slice(1).map((x) => operand(x, dot));
        if (!first) args.push(piped);
        v = funcs[w[0]](...args);
      } else if (w[0] === ".Files.Get") {
        v = root.Files.Get(...w.slice(1).map((x) => operand(x, dot)));
      } else if (w.length === 1 && first) {
        v = operand(w[0], dot);
      } else {
        throw new Error(`function '${w[0]}' is not supported by this renderer`);
      }
      piped = v;
      first = false;
    }
    return piped;
  }
  function run(nodes, dot) {
    let out = "";
    for (const n of nodes) {
      if (n.t === "text") out += n.v;
      else if (n.t === "out") out += show(evalPipe(n.pipe, dot));
      else if (n.t === "if") out += run(truthy(evalPipe(n.pipe, dot)) ? n.then : n.else, dot);
    }
    return out;
  }
  // Every template file is parsed first, so that defines are known wherever they are used.
  const dir = path.join(chartDir, "templates");
  const files = fs.readdirSync(dir).sort();
  const trees = {};
  for (const f of files) {
    const src = fs.readFileSync(path.join(dir, f), "utf8");
    trees[f] = parse(tokenize(src, f), f, defines);
  }
  return () => {
    const rendered = {};
    for (const f of files) {
      if (f.startsWith("_") || !/\.ya?ml$/.test(f)) continue;
      try {
        rendered[f] = run(trees[f], root);
      } catch (e) {
        throw new Error(`templates/${f}: ${e.message}`);
      }
    }
    return rendered;
  };
}

function setValue(values, assignment) {
  const eq = assignment.indexOf("=");
  if (eq < 0) throw new Error(`not key=value: ${assignment}`);
  const keys = assignment.slice(0, eq).split(".");
  let raw = assignment.slice(eq + 1);
  let v = raw;
  if (/^-?\d+$/.test(raw)) v = Number(raw);
  else if (raw === "true" || raw === "false") v = raw === "true";
  let o = values;
  for (const k of keys.slice(0, -1)) o = o[k] ??= {};
  o[keys.at(-1)] = v;
  return values;
}

function renderChart(chartDir, sets, release = "platform") {
  const values = YAML.parse(fs.readFileSync(path.join(chartDir, "values.yaml"), "utf8"));
  for (const s of sets) setValue(values, s);
  const rendered = makeRenderer(chartDir, values, release)();
  return { values, rendered };
}

// ---------------------------------------------------------------- the checks

let failures = 0;
const ok = (msg) => console.log(`ok   ${msg}`);
const fail = (msg) => {
  console.log(`FAIL ${msg}`);
  failures++;
};
const expect = (cond, good, bad) => (cond ? ok(good) : fail(bad));

function diff(a, b, at, out) {
  if (isDeepStrictEqual(a, b)) return out;
  if (a && b && typeof a === "object" && typeof b === "object" && Array.isArray(a) === Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const k of keys) diff(a[k], b[k], Array.isArray(a) ? `${at}[${k}]` : `${at}.${k}`, out);
    return out;
  }
  out.push(`${at}: chart ${JSON.stringify(a)} vs manifests ${JSON.stringify(b)}`);
  return out;
}

const keyOf = (o) => `${o.kind}/${o.metadata?.name}`;

async function validateAll(objects, label) {
  for (const { obj, where } of objects) {
    const err = await schemaErrors(obj);
    expect(!err, `${label}: ${where} ${keyOf(obj)} matches the Kubernetes schema`, `${label}: ${where} ${keyOf(obj)}: ${err}`);
  }
}

function dockerfileInstructions(text) {
  const joined = text.replace(/\\\n/g, " ").split("\n");
  const out = [];
  for (const line of joined) {
    const l = line.trim();
    if (!l || l.startsWith("#")) continue;
    const m = /^([A-Za-z]+)\s+(.*)$/.exec(l);
    if (m) out.push({ op: m[1].toUpperCase(), arg: m[2].replace(/\s+/g, " ").trim() });
  }
  return out;
}

function checkDockerfile(repo, kube, deployment) {
  const file = path.join(kube, "Dockerfile");
  const rel = (p) => path.relative(repo, p);
  if (!fs.existsSync(file)) return fail(`${rel(file)} is missing`);
  const ins = dockerfileInstructions(fs.readFileSync(file, "utf8"));
  const froms = ins.filter((i) => i.op === "FROM");
  expect(froms.length >= 1, `Dockerfile: ${froms.length} stage(s)`, "Dockerfile: no FROM");
  for (const f of froms) {
    const image = f.arg.split(" ")[0];
    expect(
      /^debian:(bookworm|12)(-slim)?$/.test(image),
      `Dockerfile: FROM ${image} (Debian 12, tagged)`,
      `Dockerfile: FROM ${image}: not a tagged Debian 12 (bookworm) image`,
    );
  }
  // Paths in the repository that the build COPYs or RUNs.
  const missing = [];
  let referenced = 0;
  for (const i of ins) {
    if (i.op === "COPY" && !/--from=/.test(i.arg)) {
      const args = i.arg.split(" ").filter((x) => !x.startsWith("--"));
      for (const src of args.slice(0, -1)) {
        referenced++;
        if (!fs.existsSync(path.join(repo, src))) missing.push(src);
      }
    }
    if (i.op === "RUN") {
      for (const m of i.arg.matchAll(/(?:^|[\s=])((?:scripts|profiles|deploy|cmake)\/[A-Za-z0-9_./-]+)/g)) {
        referenced++;
        if (!fs.existsSync(path.join(repo, m[1]))) missing.push(m[1]);
      }
    }
    if (i.op === "ADD") fail(`Dockerfile: ADD ${i.arg} (use COPY; no remote sources)`);
    if (i.op === "RUN" && /\bsudo\b/.test(i.arg)) fail("Dockerfile: RUN uses sudo");
    if (i.op === "RUN" && /apt-get install/.test(i.arg)) {
      expect(/--no-install-recommends/.test(i.arg), "Dockerfile: apt-get install --no-install-recommends", "Dockerfile: apt-get install without --no-install-recommends");
      expect(/apt-get update/.test(i.arg) && /rm -rf \/var\/lib\/apt\/lists/.test(i.arg), "Dockerfile: apt-get update and list clean-up in the same RUN", "Dockerfile: apt-get install without update and rm -rf /var/lib/apt/lists/* in the same RUN");
    }
  }
  expect(missing.length === 0, `Dockerfile: the ${referenced} repository paths it COPYs or RUNs exist`, `Dockerfile: missing in the repository: ${missing.join(", ")}`);
  expect(/scripts\/build\.sh --server/.test(ins.filter((i) => i.op === "RUN").map((i) => i.arg).join("\n")), "Dockerfile: builds with the README's scripts/build.sh --server", "Dockerfile: does not run scripts/build.sh --server");

  const last = ins.slice(ins.lastIndexOf(froms.at(-1)));
  const pod = deployment.spec.template.spec.securityContext ?? {};
  const user = last.filter((i) => i.op === "USER").at(-1)?.arg;
  expect(
    user === `${pod.runAsUser}:${pod.runAsGroup}` && pod.runAsUser > 0,
    `Dockerfile: the last stage runs as ${user}, the pods' runAsUser:runAsGroup`,
    `Dockerfile: USER ${user} is not the pods' non-root ${pod.runAsUser}:${pod.runAsGroup}`,
  );
  const container = deployment.spec.template.spec.containers[0];
  const exposed = last.filter((i) => i.op === "EXPOSE").flatMap((i) => i.arg.split(" ")).map(Number).sort();
  const ports = container.ports.map((p) => p.containerPort).sort();
  expect(isDeepStrictEqual(exposed, ports), `Dockerfile: EXPOSE ${exposed.join(" ")} = the container's ports`, `Dockerfile: EXPOSE ${exposed.join(" ")} vs container ports ${ports.join(" ")}`);
  let cmd = null;
  try {
    cmd = JSON.parse(last.filter((i) => i.op === "CMD").at(-1)?.arg ?? "null");
  } catch {}
  expect(isDeepStrictEqual(cmd, container.args), `Dockerfile: CMD ${JSON.stringify(cmd)} = the Deployment's args`, `Dockerfile: CMD ${JSON.stringify(cmd)} (exec form) vs args ${JSON.stringify(container.args)}`);
  const env = Object.fromEntries(
    last.filter((i) => i.op === "ENV").flatMap((i) => [...i.arg.matchAll(/([A-Z_]+)=(\S+)/g)].map((m) => [m[1], m[2]])),
  );
  const home = container.env.find((e) => e.name === "PLATFORM_HOME")?.value;
  expect(env.PLATFORM_HOME === home, `Dockerfile: ENV PLATFORM_HOME=${env.PLATFORM_HOME} = the Deployment's`, `Dockerfile: ENV PLATFORM_HOME=${env.PLATFORM_HOME} vs the Deployment's ${home}`);
  const volumes = last.filter((i) => i.op === "VOLUME").map((i) => i.arg).join(" ");
  expect(volumes.includes(`"${home}"`) || volumes.split(" ").includes(home), `Dockerfile: VOLUME ${home}`, `Dockerfile: PLATFORM_HOME ${home} is not a VOLUME`);
  const ignore = path.join(kube, "Dockerfile.dockerignore");
  const ignored = fs.existsSync(ignore) ? fs.readFileSync(ignore, "utf8").split("\n").map((l) => l.trim()) : [];
  const wanted = [".git", "build", "build-*", "**/node_modules"];
  expect(wanted.every((w) => ignored.includes(w)), `Dockerfile.dockerignore: leaves out ${wanted.join(", ")}`, `Dockerfile.dockerignore: must leave out ${wanted.join(", ")}`);
}

function envNames(container) {
  return container.env.map((e) => e.name);
}

function checkAgreement(values, byKey, profileText) {
  const dep = byKey["Deployment/platform"];
  const svc = byKey["Service/platform"];
  const cm = byKey["ConfigMap/platform-profile"];
  const sec = byKey["Secret/platform"];
  for (const [k, v] of Object.entries({ "Deployment/platform": dep, "Service/platform": svc, "ConfigMap/platform-profile": cm, "Secret/platform": sec }))
    if (!v) return fail(`the manifests have no ${k}`);
  const c = dep.spec.template.spec.containers[0];
  const port = (name) => c.ports.find((p) => p.name === name)?.containerPort;
  expect(dep.spec.replicas === values.replicaCount, `replicas: ${dep.spec.replicas} = values.replicaCount`, `replicas: manifests ${dep.spec.replicas} vs values.replicaCount ${values.replicaCount}`);
  expect(port("http") === values.ports.http && port("rpc") === values.ports.rpc, `ports: http ${port("http")}, rpc ${port("rpc")} = values.ports`, `ports: manifests http ${port("http")} rpc ${port("rpc")} vs values.ports ${JSON.stringify(values.ports)}`);
  const sp = svc.spec.ports.find((p) => p.name === "http");
  expect(sp && sp.port === values.service.port && sp.targetPort === "http", `Service: port ${sp?.port} → the container's http port`, `Service: http port ${JSON.stringify(sp)} vs values.service.port ${values.service.port}`);
  const sel = svc.spec.selector;
  expect(Object.entries(sel).every(([k, v]) => dep.spec.template.metadata.labels[k] === v), "Service: its selector matches the pods' labels", "Service: its selector does not match the pods' labels");
  for (const probe of ["startupProbe", "readinessProbe", "livenessProbe"]) {
    const g = c[probe]?.httpGet;
    expect(
      g && g.path === values.probes.path && g.path === "/health" && g.port === values.ports.http,
      `${probe}: GET ${g?.path} on ${g?.port} = values.probes.path on values.ports.http`,
      `${probe}: ${JSON.stringify(g)} vs /health on ${values.ports.http}`,
    );
  }
  const env = Object.fromEntries(c.env.map((e) => [e.name, e]));
  expect(env.PLATFORM_API_ADDRESS?.value === `:${values.ports.http}` && env.PLATFORM_PROXY_ADDRESS?.value === `:${values.ports.rpc}`, "env: the gateway and proxy addresses use the container's ports", `env: PLATFORM_API_ADDRESS ${env.PLATFORM_API_ADDRESS?.value} / PLATFORM_PROXY_ADDRESS ${env.PLATFORM_PROXY_ADDRESS?.value} vs ports`);
  expect(env.PLATFORM_NODE_ID?.valueFrom?.fieldRef?.fieldPath === "metadata.name", "env: PLATFORM_NODE_ID is the pod's name", `env: PLATFORM_NODE_ID ${JSON.stringify(env.PLATFORM_NODE_ID)} is not the pod's name`);
  expect(env.PLATFORM_NATS_URL?.value === values.nats.url, `env: PLATFORM_NATS_URL ${env.PLATFORM_NATS_URL?.value} = values.nats.url`, `env: PLATFORM_NATS_URL ${env.PLATFORM_NATS_URL?.value} vs values.nats.url ${values.nats.url}`);
  for (const [name, key] of [["PLATFORM_POSTGRES_URL", "postgres-url"], ["PLATFORM_CONFIG_SECRET_KEY", "config-secret-key"], ["PLATFORM_ADMIN_SECRET", "admin-secret"]]) {
    const ref = env[name]?.valueFrom?.secretKeyRef;
    expect(ref && ref.name === sec.metadata.name && ref.key === key && key in sec.stringData, `env: ${name} from Secret ${ref?.name} key ${key}`, `env: ${name} is not the Secret's ${key}: ${JSON.stringify(env[name])}`);
  }
  expect(sec.stringData["postgres-url"] === values.postgres.url, "Secret: postgres-url = values.postgres.url", `Secret: postgres-url ${sec.stringData["postgres-url"]} vs values.postgres.url ${values.postgres.url}`);
  expect(c.image === `${values.image.repository}:${values.image.tag}`, `image: ${c.image} = values.image`, `image: ${c.image} vs values.image ${values.image.repository}:${values.image.tag}`);
  expect(isDeepStrictEqual(c.args, ["server", "--profile", "kubernetes"]), "args: server --profile kubernetes", `args: ${JSON.stringify(c.args)}`);
  // The profile the args name is the ConfigMap's file, in the folder PLATFORM_PROFILE_PATH names.
  const mounts = Object.fromEntries(c.volumeMounts.map((m) => [m.name, m]));
  const vols = Object.fromEntries(dep.spec.template.spec.volumes.map((v) => [v.name, v]));
  expect(
    mounts.profile?.mountPath === env.PLATFORM_PROFILE_PATH?.value && vols.profile?.configMap?.name === cm.metadata.name && "kubernetes.yaml" in cm.data,
    `profile: ConfigMap ${cm.metadata.name} key kubernetes.yaml mounted at PLATFORM_PROFILE_PATH ${env.PLATFORM_PROFILE_PATH?.value}`,
    "profile: the ConfigMap's kubernetes.yaml is not mounted where PLATFORM_PROFILE_PATH points",
  );
  expect(mounts.home?.mountPath === env.PLATFORM_HOME?.value && vols.home?.emptyDir, `PLATFORM_HOME ${env.PLATFORM_HOME?.value}: each replica's own emptyDir`, "PLATFORM_HOME is not the home volume's mount path");
  let profile;
  try {
    profile = YAML.parse(cm.data["kubernetes.yaml"]);
  } catch (e) {
    return fail(`profile: the ConfigMap's kubernetes.yaml is not YAML: ${e.message}`);
  }
  expect(profile?.name === "kubernetes", "profile: name kubernetes", `profile: name ${profile?.name}`);
  // The two URLs the profile's providers read (${VAR}, ${VAR:?message}) must be set in the container.
  const vars = [...new Set([...cm.data["kubernetes.yaml"].matchAll(/\$\{(PLATFORM_(?:POSTGRES|NATS)_URL)(?:[:?-][^}]*)?\}/g)].map((m) => m[1]))];
  expect(vars.length === 2 && vars.every((v) => env[v]), `profile: reads ${vars.join(", ")}, both set in the container`, `profile: reads ${vars.join(", ") || "neither"} of PLATFORM_POSTGRES_URL, PLATFORM_NATS_URL (both must be, and set)`);
  const sc = c.securityContext ?? {};
  const psc = dep.spec.template.spec.securityContext ?? {};
  expect(psc.runAsNonRoot === true && psc.runAsUser > 0 && sc.readOnlyRootFilesystem === true && sc.allowPrivilegeEscalation === false, "securityContext: non-root, read-only root file system, no privilege escalation", "securityContext: must be non-root with a read-only root file system");
  if (profileText === null) return;
}

async function check(repo, kube, profileFile) {
  const rel = (p) => path.relative(repo, p) || ".";
  const manifestsDir = path.join(kube, "manifests");
  const chartDir = path.join(kube, "chart");

  // 1. The plain manifests against the schemas.
  const manifests = [];
  for (const f of fs.readdirSync(manifestsDir).filter((f) => /\.ya?ml$/.test(f)).sort()) {
    const where = `${rel(manifestsDir)}/${f}`;
    try {
      for (const obj of parseYamlDocs(fs.readFileSync(path.join(manifestsDir, f), "utf8"), where)) manifests.push({ obj, where });
    } catch (e) {
      fail(e.message);
    }
  }
  expect(manifests.length === 4, `manifests: ${manifests.length} objects`, `manifests: ${manifests.length} objects, want 4 (Deployment, Service, ConfigMap, Secret)`);
  await validateAll(manifests, "manifests");

  // 2. The chart: rendered with its defaults, validated, compared.
  let values, rendered;
  try {
    ({ values, rendered } = renderChart(chartDir, ["secret.configSecretKey=" + "0".repeat(64)]));
  } catch (e) {
    return fail(`chart: ${e.message}`);
  }
  const chartObjects = [];
  for (const [f, text] of Object.entries(rendered)) {
    try {
      for (const obj of parseYamlDocs(text, `chart templates/${f}`)) chartObjects.push({ obj, where: `chart templates/${f}` });
    } catch (e) {
      fail(`${e.message} (rendered)`);
    }
  }
  await validateAll(chartObjects, "chart");
  const fromChart = Object.fromEntries(chartObjects.map(({ obj }) => [keyOf(obj), obj]));
  const fromManifests = Object.fromEntries(manifests.map(({ obj }) => [keyOf(obj), obj]));
  const names = (o) => Object.keys(o).sort().join(", ");
  expect(names(fromChart) === names(fromManifests), `chart and manifests: the same objects (${names(fromChart)})`, `chart objects (${names(fromChart)}) vs manifests (${names(fromManifests)})`);
  for (const k of Object.keys(fromChart)) {
    if (!fromManifests[k]) continue;
    let a = fromChart[k],
      b = fromManifests[k];
    if (a.kind === "Secret") {
      // Placeholders in the manifests, the test's key in the chart: compare the keys only.
      a = { ...a, stringData: Object.keys(a.stringData ?? {}).sort() };
      b = { ...b, stringData: Object.keys(b.stringData ?? {}).sort() };
    }
    const d = diff(a, b, k, []);
    expect(d.length === 0, `chart = manifests: ${k}`, `chart ≠ manifests: ${d.slice(0, 8).join("; ")}`);
  }
  checkAgreement(values, fromManifests, null);

  // The renderer's own checks: `required` stops a chart without the secret key, existingSecret
  // drops the chart's Secret and points every secretKeyRef at it.
  try {
    renderChart(chartDir, []);
    fail("chart: rendered without secret.configSecretKey; `required` should have stopped it");
  } catch (e) {
    expect(/secret\.configSecretKey is required/.test(e.message), "chart: no secret.configSecretKey → stops, naming it", `chart: ${e.message}`);
  }
  try {
    const r = renderChart(chartDir, ["secret.existingSecret=mine", "replicaCount=5"]).rendered;
    const objs = Object.values(r).flatMap((t) => parseYamlDocs(t, "rendered"));
    const dep = objs.find((o) => o.kind === "Deployment");
    const refs = dep.spec.template.spec.containers[0].env.filter((e) => e.valueFrom?.secretKeyRef).map((e) => e.valueFrom.secretKeyRef.name);
    expect(
      !objs.some((o) => o.kind === "Secret") && refs.length === 3 && refs.every((n) => n === "mine") && dep.spec.replicas === 5,
      "chart: existingSecret=mine → no Secret, every secretKeyRef names it; replicaCount=5 → 5 replicas",
      `chart: existingSecret/replicaCount not applied (${refs.join(",")}, ${dep.spec.replicas})`,
    );
  } catch (e) {
    fail(`chart with existingSecret: ${e.message}`);
  }

  // 3. The profile text: manifests ConfigMap = chart files/ = profiles/kubernetes.yaml.
  const cmText = fromManifests["ConfigMap/platform-profile"]?.data?.["kubernetes.yaml"];
  const chartText = fromChart["ConfigMap/platform-profile"]?.data?.["kubernetes.yaml"];
  const filesText = fs.readFileSync(path.join(chartDir, "files", "kubernetes.yaml"), "utf8");
  expect(cmText === filesText && chartText === filesText, "profile: the manifests' ConfigMap, the chart's rendered one and chart/files/kubernetes.yaml hold the same text", "profile: the manifests' ConfigMap and chart/files/kubernetes.yaml differ (profiles/kubernetes/sync-profile)");
  if (fs.existsSync(profileFile)) {
    const text = fs.readFileSync(profileFile, "utf8");
    expect(cmText === text && filesText === text, `profile: equals ${rel(profileFile)} byte for byte`, `profile: the ConfigMap differs from ${rel(profileFile)}; run profiles/kubernetes/sync-profile`);
  } else {
    console.log(`SKIP profile: ${rel(profileFile)} is absent; checked the ConfigMap against the chart's copy only`);
  }

  // 4. The Dockerfile against the repository and the Deployment.
  checkDockerfile(repo, kube, fromManifests["Deployment/platform"]);
}

// `pod <manifests> <outdir>`: what the Deployment's container would get, for running the host
// as the pod would without a cluster (tests/scripts/kubernetes_backup_test.sh): <outdir>/args (one
// argument a line), <outdir>/env (NAME=value, NAME=secret:<key> for a Secret's key, NAME=field:<path>
// for the pod's own fields) and
// <outdir>/profiles/<file> for each key of the ConfigMap mounted where PLATFORM_PROFILE_PATH points.
function writePod(manifestsDir, outDir) {
  const objs = fs
    .readdirSync(manifestsDir)
    .filter((f) => /\.ya?ml$/.test(f))
    .flatMap((f) => parseYamlDocs(fs.readFileSync(path.join(manifestsDir, f), "utf8"), f));
  const dep = objs.find((o) => o.kind === "Deployment");
  if (!dep) throw new Error(`${manifestsDir}: no Deployment`);
  const c = dep.spec.template.spec.containers[0];
  fs.mkdirSync(path.join(outDir, "profiles"), { recursive: true });
  fs.writeFileSync(path.join(outDir, "args"), (c.args ?? []).join("\n") + "\n");
  const env = c.env.map((e) => {
    if (e.valueFrom?.secretKeyRef) return `${e.name}=secret:${e.valueFrom.secretKeyRef.key}`;
    if (e.valueFrom?.fieldRef) return `${e.name}=field:${e.valueFrom.fieldRef.fieldPath}`;
    if (typeof e.value !== "string" || e.value.includes("\n")) throw new Error(`env ${e.name}: not a one-line value`);
    return `${e.name}=${e.value}`;
  });
  fs.writeFileSync(path.join(outDir, "env"), env.join("\n") + "\n");
  const profilePath = c.env.find((e) => e.name === "PLATFORM_PROFILE_PATH")?.value;
  const mount = c.volumeMounts.find((m) => m.mountPath === profilePath);
  const volume = dep.spec.template.spec.volumes.find((v) => v.name === mount?.name);
  const cm = objs.find((o) => o.kind === "ConfigMap" && o.metadata.name === volume?.configMap?.name);
  if (!cm) throw new Error("no ConfigMap mounted at PLATFORM_PROFILE_PATH");
  for (const [k, v] of Object.entries(cm.data)) fs.writeFileSync(path.join(outDir, "profiles", k), v);
}

// ---------------------------------------------------------------- main

const [mode, ...args] = process.argv.slice(2);
try {
  if (mode === "validate" && args.length) {
    for (const f of args) {
      let objs = [];
      try {
        objs = parseYamlDocs(fs.readFileSync(f, "utf8"), f).map((obj) => ({ obj, where: f }));
      } catch (e) {
        fail(e.message);
      }
      await validateAll(objs, "validate");
    }
  } else if (mode === "pod" && args.length === 2) {
    writePod(args[0], args[1]);
  } else if (mode === "render" && args.length) {
    const { rendered } = renderChart(args[0], args.slice(1));
    for (const [f, text] of Object.entries(rendered)) process.stdout.write(`---\n# Source: templates/${f}\n${text}\n`);
  } else if (mode === "check" && args.length) {
    const repo = path.resolve(args[0]);
    const opt = (name, dflt) => {
      const i = args.indexOf(name);
      return i > 0 ? path.resolve(args[i + 1]) : dflt;
    };
    await check(repo, opt("--kube", path.join(repo, "profiles", "kubernetes")), opt("--profile", path.join(repo, "profiles", "kubernetes.yaml")));
  } else {
    console.error("usage: kubernetes_check.mjs check <repo> [--kube DIR] [--profile FILE] | validate FILE... | render <chart> [key=value...] | pod <manifests> <outdir>");
    process.exit(2);
  }
} catch (e) {
  fail(e.stack || e.message);
}
if (failures) {
  console.log(`FAIL ${failures} check(s)`);
  process.exit(1);
}
