// The live view of docs/ui.md: polls /ui/version every second and, when it moved, fetches
// /ui/node.json and redraws (or draws window.NODE_MODEL once, in a page written offline). Plain DOM, no libraries, nothing fetched from elsewhere.
'use strict';

const POLL_MS = 1000;
// Levels with more CPUs than this start collapsed, so 4,096 CPUs stay usable.
const OPEN_LIMIT = 256;
const ACTIVE = new Set(['created', 'running']);
const toggled = new Map(); // details key -> open, as the user left it
let shown = null; // version on screen
let model = null;
let picked = null; // cacheId whose explanation the "Why here" panel shows, as the user clicked

function cpuList(text) {
  const out = [];
  if (!text) return out;
  for (const part of text.split(',')) {
    const [a, b] = part.split('-').map(Number);
    for (let i = a; i <= (b === undefined ? a : b); i++) out.push(i);
  }
  return out;
}

function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const c of children) e.append(c);
  return e;
}

// A pod keeps its colour across updates: a hue from an FNV-1a hash of its UID, mixed so that
// UIDs differing in one character get far-apart hues.
function podColor(pod) {
  let h = 0x811c9dc5;
  for (const ch of pod.uid || pod.id) h = Math.imul(h ^ ch.charCodeAt(0), 0x01000193);
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  return 'hsl(' + ((h >>> 0) % 360) + ', 65%, 52%)';
}

function bytes(n) {
  if (!n) return '0';
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
  return (Math.round(n * 10) / 10) + ' ' + units[i];
}

function milli(n) { return n ? (n / 1000) + ' CPU' : '-'; }

// Collapsible level; remembers what the user opened or closed across redraws.
function level(key, cls, title, note, cpuCount, body) {
  const d = el('details', { class: cls, 'data-key': key });
  d.open = toggled.has(key) ? toggled.get(key) : cpuCount <= OPEN_LIMIT;
  d.addEventListener('toggle', () => toggled.set(key, d.open));
  const s = el('summary', {}, title);
  if (note) s.append(el('span', { class: 'summary-note' }, note));
  d.append(s, body);
  return d;
}

function indexModel(m) {
  const roles = new Map(); // cpu -> {kind, name}
  for (const set of m.cpuSets) {
    for (const cpu of cpuList(set.cpus)) {
      if (!roles.has(cpu) || set.kind === 'exclusive') roles.set(cpu, set);
    }
  }
  const onCpu = new Map(); // cpu -> [container]
  const unpinned = [];
  const containers = [];
  const pods = [...m.pods].sort((a, b) =>
    (a.namespace + '/' + a.name).localeCompare(b.namespace + '/' + b.name));
  for (const pod of pods) {
    const color = podColor(pod);
    for (const c of pod.containers) {
      const entry = { pod, c, color, cpus: cpuList(c.cpus) };
      containers.push(entry);
      if (!ACTIVE.has(c.state)) continue;
      if (entry.cpus.length === 0) unpinned.push(entry);
      for (const cpu of entry.cpus) {
        if (!onCpu.has(cpu)) onCpu.set(cpu, []);
        onCpu.get(cpu).push(entry);
      }
    }
  }
  return { roles, onCpu, unpinned, containers };
}

function chip(entry) {
  const i = el('i', { class: 'chip', 'data-container': entry.c.cacheId });
  i.style.background = entry.color;
  return i;
}

function cpuCell(cpu, idx) {
  const role = idx.roles.get(cpu);
  const cell = el('div', {
    class: 'cpu kind-' + (role ? role.kind : 'free'),
    'data-cpu': String(cpu),
    'data-set': role ? role.name : '',
  }, el('div', { class: 'id' }, 'cpu' + cpu));
  const chips = el('div', { class: 'chips' });
  for (const entry of idx.onCpu.get(cpu) || []) chips.append(chip(entry));
  cell.append(chips);
  return cell;
}

function placedOn(cpus, idx) {
  const names = new Set();
  for (const cpu of cpus) for (const e of idx.onCpu.get(cpu) || []) names.add(e.c.cacheId);
  return names.size ? names.size + (names.size === 1 ? ' container' : ' containers') : '';
}

function cacheGroup(key, group, idx) {
  const body = el('div', { class: 'body' });
  for (const core of group.cores) {
    const c = el('div', { class: 'core', title: 'core ' + core.id });
    for (const cpu of core.cpus) c.append(cpuCell(cpu, idx));
    body.append(c);
  }
  if (group.l3 === null) return body;
  const cpus = cpuList(group.cpus);
  return level(key, 'l3', 'L3 cache (CPUs ' + group.l3 + ')', placedOn(cpus, idx), cpus.length, body);
}

function numaNode(key, node, memory, idx) {
  const body = el('div', { class: 'body' });
  node.caches.forEach((g, i) => body.append(cacheGroup(key + '/l3' + i, g, idx)));
  const cpus = cpuList(node.cpus);
  const mem = memory.get(node.id);
  const title = 'NUMA node ' + node.id + (mem ? ' · ' + mem.memoryType + ' ' + bytes(mem.memoryBytes) : '');
  return level(key, 'numa', title, 'CPUs ' + node.cpus + ' ' + placedOn(cpus, idx), cpus.length, body);
}

function drawTopology(m, idx) {
  const root = el('div', {});
  const memory = new Map(m.topology.nodes.map((n) => [n.id, n]));
  if (m.topology.error) root.append(el('p', { class: 'error' }, 'topology unknown: ' + m.topology.error));
  for (const p of m.topology.packages) {
    const pbody = el('div', { class: 'body' });
    for (const d of p.dies) {
      const dbody = el('div', { class: 'body' });
      const dkey = 'p' + p.id + 'd' + d.id;
      d.nodes.forEach((n) => dbody.append(numaNode(dkey + 'n' + n.id, n, memory, idx)));
      const dcpus = cpuList(d.cpus);
      pbody.append(level(dkey, 'die', 'die ' + d.id, 'CPUs ' + d.cpus, dcpus.length, dbody));
    }
    const pcpus = cpuList(p.cpus);
    root.append(level('p' + p.id, 'package', 'package ' + p.id, 'CPUs ' + p.cpus + ' ' + placedOn(pcpus, idx), pcpus.length, pbody));
  }
  if (idx.unpinned.length) {
    const u = el('div', { class: 'unpinned', id: 'unpinned' }, 'not pinned (any CPU): ');
    idx.unpinned.forEach((e) => u.append(chip(e)));
    root.append(u);
  }
  return root;
}

function drawPods(idx) {
  const box = el('div', {});
  let pod = null;
  let podDiv = null;
  for (const entry of idx.containers) {
    if (entry.pod !== pod) {
      pod = entry.pod;
      const swatch = el('i', { class: 'chip' });
      swatch.style.background = entry.color;
      podDiv = el('div', { class: 'pod', 'data-pod': pod.id }, swatch, ' ',
        el('span', { class: 'name' }, pod.namespace + '/' + pod.name), ' ' + pod.qosClass);
      box.append(podDiv);
    }
    const where = ACTIVE.has(entry.c.state)
      ? 'cpus ' + (entry.c.cpus || 'any') + ' mems ' + (entry.c.mems || 'any')
      : entry.c.state;
    podDiv.append(el('div', { class: 'container', 'data-container': entry.c.cacheId },
      entry.c.name + ' ', el('span', { class: 'where' }, where)));
  }
  return box;
}

function drawSets(m) {
  const t = el('tbody', {});
  for (const s of m.cpuSets) t.append(el('tr', {}, el('td', {}, s.kind), el('td', {}, s.name), el('td', {}, s.cpus)));
  return t;
}

function drawMemory(m) {
  const t = el('tbody', {});
  for (const n of m.topology.nodes) {
    t.append(el('tr', {}, el('td', {}, 'node ' + n.id), el('td', {}, n.memoryType + (n.far ? ' (far)' : '')),
      el('td', {}, bytes(n.memoryBytes)), el('td', {}, n.cpus ? 'CPUs ' + n.cpus : 'memory only')));
  }
  return t;
}

function describe(entry) {
  const c = entry.c;
  const lines = [
    entry.pod.namespace + '/' + entry.pod.name + ' : ' + c.name,
    'state ' + c.state + ', QoS ' + c.qosClass,
    'cpus ' + (c.cpus || 'any') + ', mems ' + (c.mems || 'any'),
    'requests cpu ' + milli(c.requests.cpuMilli) + ', memory ' + bytes(c.requests.memoryBytes),
    'limits   cpu ' + milli(c.limits.cpuMilli) + ', memory ' + bytes(c.limits.memoryBytes),
    'RDT class ' + (c.classes.rdt || '-') + ', block I/O class ' + (c.classes.blockIo || '-'),
    'memory QoS class ' + (c.classes.memoryQos || '-'),
  ];
  for (const [k, v] of Object.entries(c.unified)) lines.push(k + ' = ' + v);
  if (c.why) lines.push('why: ' + c.why.summary);
  return lines.join('\n');
}

// An explanation (docs/ui.md, "Why here") as lines: its summary, then a line per candidate.
function whyLines(why) {
  return [why.summary, ...why.candidates.map((c) => '  ' + c.name + ': ' + c.score + ': ' + c.verdict)];
}

function drawWhy(idx) {
  const entry = picked && idx.containers.find((e) => e.c.cacheId === picked);
  if (!entry) return el('p', { class: 'note' }, 'click a container for why it is where it is');
  const text = entry.c.why ? whyLines(entry.c.why).join('\n') : 'the policy gave no explanation';
  return el('div', { 'data-why': entry.c.cacheId },
    el('div', { class: 'name' }, entry.pod.namespace + '/' + entry.pod.name + ' : ' + entry.c.name),
    el('pre', {}, text));
}

function drawRefusals(m) {
  const box = el('div', {});
  const refusals = [...(m.refusals || [])].reverse(); // newest first
  if (!refusals.length) box.append(el('p', { class: 'note' }, 'none'));
  for (const r of refusals) {
    box.append(el('div', { class: 'refusal', 'data-refusal': r.namespace + '/' + r.pod + '/' + r.container },
      el('div', { class: 'name' }, r.namespace + '/' + r.pod + ' : ' + r.container),
      el('div', { class: 'at' }, r.at),
      el('pre', {}, whyLines(r.why).join('\n') + '\n' + r.message)));
  }
  return box;
}

function highlight(cacheId, on) {
  const entry = model && model.idx.containers.find((e) => e.c.cacheId === cacheId);
  if (!entry) return;
  for (const cpu of entry.cpus) {
    const cell = document.querySelector('[data-cpu="' + cpu + '"]');
    if (cell) cell.classList.toggle('hl', on);
  }
  document.querySelectorAll('.container[data-container="' + CSS.escape(cacheId) + '"]')
    .forEach((e) => e.classList.toggle('hl', on));
  const tip = document.getElementById('tip');
  tip.hidden = !on;
  if (on) tip.textContent = describe(entry);
}

function hover(event, on) {
  const target = event.target.closest('[data-container]');
  if (target) highlight(target.getAttribute('data-container'), on);
}

function render(m) {
  const idx = indexModel(m);
  model = { m, idx };
  document.getElementById('policy').textContent = m.policy;
  document.getElementById('version').textContent = String(m.version);
  document.getElementById('node').replaceChildren(drawTopology(m, idx));
  document.getElementById('pods').replaceChildren(drawPods(idx));
  document.getElementById('sets').replaceChildren(drawSets(m));
  document.getElementById('memory').replaceChildren(drawMemory(m));
  document.getElementById('why').replaceChildren(drawWhy(idx));
  document.getElementById('refusals').replaceChildren(drawRefusals(m));
  document.getElementById('tip').hidden = true;
}

function status(text, cls) {
  const s = document.getElementById('status');
  s.textContent = text;
  s.className = 'status ' + cls;
}

async function poll() {
  try {
    const v = await fetch('/ui/version', { cache: 'no-store' });
    if (!v.ok) throw new Error('/ui/version: ' + v.status + ' ' + (await v.text()));
    const version = (await v.text()).trim();
    if (version !== shown) {
      const r = await fetch('/ui/node.json', { cache: 'no-store' });
      if (!r.ok) throw new Error('/ui/node.json: ' + r.status + ' ' + (await r.text()));
      const m = await r.json();
      render(m);
      shown = String(m.version);
    }
    status('live', 'live');
  } catch (e) {
    status('disconnected: ' + e.message, 'down');
  }
  setTimeout(poll, POLL_MS);
}

document.addEventListener('mouseover', (e) => hover(e, true));
document.addEventListener('click', (e) => {
  const target = e.target.closest('[data-container]');
  if (!target || !model) return;
  picked = target.getAttribute('data-container');
  document.getElementById('why').replaceChildren(drawWhy(model.idx));
});
document.addEventListener('mouseout', (e) => hover(e, false));
document.addEventListener('mousemove', (e) => {
  const tip = document.getElementById('tip');
  tip.style.left = (e.clientX + 14) + 'px';
  tip.style.top = (e.clientY + 14) + 'px';
});
// A page written offline (a simulated node) embeds its model as window.NODE_MODEL: draw it, no polls.
if (window.NODE_MODEL) {
  render(window.NODE_MODEL);
  status('snapshot', '');
} else {
  poll();
}
