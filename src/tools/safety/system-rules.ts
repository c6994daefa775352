/**
 * Changes to the machine and to remote resources: uninstalling packages, stopping services,
 * managing users and the firewall, and deleting cloud resources (`aws s3 rm`, `gcloud … delete`,
 * `az … delete`, `gh repo delete`, `heroku apps:destroy`, `terraform apply`).
 */
import { clip, has, parseFlags, type Rule } from './rule-kit';

/** Package managers and the subcommands that remove packages. */
const REMOVE: Record<string, string[]> = {
  apt: ['remove', 'purge', 'autoremove', 'autopurge'],
  'apt-get': ['remove', 'purge', 'autoremove', 'autopurge'],
  aptitude: ['remove', 'purge'],
  dnf: ['remove', 'erase', 'autoremove'],
  yum: ['remove', 'erase', 'autoremove'],
  microdnf: ['remove'],
  zypper: ['remove', 'rm'],
  apk: ['del'],
  pip: ['uninstall'],
  pip3: ['uninstall'],
  pipx: ['uninstall', 'uninstall-all'],
  uv: ['remove', 'uninstall'],
  conda: ['remove', 'uninstall'],
  mamba: ['remove', 'uninstall'],
  poetry: ['remove'],
  gem: ['uninstall'],
  brew: ['uninstall', 'remove', 'rm', 'autoremove'],
  snap: ['remove'],
  flatpak: ['uninstall', 'remove'],
  port: ['uninstall'],
  choco: ['uninstall'],
  winget: ['uninstall'],
  composer: ['remove'],
};
const packageRemoval: Rule = (args, ctx, name) => {
  // The subcommand may come after options or a tool name (`apt-get -y purge`, `uv pip uninstall`).
  const words = parseFlags(args, ['-o', '-c', '-t', '-n', '--name', '-p', '--prefix'])
    .positionals.slice(0, 2)
    .map((a) => a.text);
  const hit = words.find((w) => REMOVE[name]!.includes(w));
  if (hit) ctx.flag(`${name} ${hit} (uninstalls)`);
};

/** Commands that change users, services, the firewall or the kernel, with the words that do it. */
const SYSTEM_VERBS: Record<string, RegExp> = {
  service: /^(stop|disable)$/,
  launchctl: /^(unload|remove|bootout|disable|kill|stop)$/,
  ufw: /^(disable|reset|delete|deny|reject|allow|limit|default|enable|insert|route)$/,
  hostnamectl: /^set-/,
  timedatectl: /^set-/,
  localectl: /^set-/,
  sysctl: /=/,
};
const systemVerb: Rule = (args, ctx, name) => {
  const hit = parseFlags(args).positionals.find((a) => SYSTEM_VERBS[name]!.test(a.text));
  if (hit) ctx.flag(`${name} ${clip(hit.text)}`);
  else if (name === 'sysctl' && args.some((a) => /^-[a-zA-Z]*[wp]/.test(a.text))) ctx.flag('sysctl -w');
};

const accounts: Rule = (args, ctx, name) => {
  if (name === 'passwd' && has(parseFlags(args), 'S', '--status')) return;
  ctx.flag(`${name} (changes accounts)`);
};

const FIREWALL_CHANGE = /^(-[ADIRFXPZNE]|--(append|delete|insert|replace|flush|delete-chain|policy|zero|new-chain|rename-chain))$/;
const iptables: Rule = (args, ctx, name) => {
  const change = args.find((a) => FIREWALL_CHANGE.test(a.text) || /^-[a-zA-Z]*[FX]/.test(a.text));
  if (change) ctx.flag(`${name} ${/[FX]/.test(change.text) ? '-F' : change.text}`);
};

const dpkg: Rule = (args, ctx) => {
  if (args.some((a) => /^(-[a-zA-Z]*[rP]|--(remove|purge))/.test(a.text))) ctx.flag('dpkg --remove');
};
const rpm: Rule = (args, ctx) => {
  if (args.some((a) => /^(-[a-zA-Z]*e|--erase)/.test(a.text))) ctx.flag('rpm -e');
};
const pacman: Rule = (args, ctx) => {
  if (args.some((a) => /^(-R|--remove)/.test(a.text))) ctx.flag('pacman -R');
};

/** Verbs of cloud CLIs that delete or stop remote resources. */
const DELETE_VERB =
  /^(delete|destroy|terminate|remove|rm|rb|purge|uninstall|prune|drain|nuke|wipe|deletefile|rmdir|rmdirs|deregister|reset)$|^(delete|terminate|remove|deregister|destroy|purge|detach|revoke)-|:(destroy|delete|remove|reset|wipe)$/;
const CLOUD = [
  'aws',
  'gcloud',
  'gsutil',
  'az',
  'gh',
  'glab',
  'heroku',
  'doctl',
  'fly',
  'flyctl',
  'vercel',
  'netlify',
  'firebase',
  'oci',
  'ibmcloud',
  'linode-cli',
  'hcloud',
  'scw',
  's3cmd',
  'rclone',
  'eksctl',
  'supabase',
  'railway',
  'wrangler',
  'pulumi',
  'aliyun',
  'mc',
  'gcs',
];
const cloud: Rule = (args, ctx, name) => {
  const words = args
    .filter((a) => !a.text.startsWith('-'))
    .slice(0, 6)
    .map((a) => a.text);
  const verb = words.find((w) => DELETE_VERB.test(w) || (name === 'rclone' && (w === 'sync' || w === 'move')));
  if (verb) return ctx.flag(`${name} ${clip(verb)}`);
  if (args.some((a) => /^--delete(-|=|$)/.test(a.text))) return ctx.flag(`${name} --delete`);
  if (deleteRequest(args.map((a) => a.text))) ctx.flag(`${name} DELETE request`);
};

/** `-X DELETE`, `--method=DELETE`: an HTTP request that deletes a remote resource. */
const deleteRequest = (t: string[]): boolean =>
  t.some(
    (x, i) =>
      (/^(-X|--method|--request)$/.test(x) && /^delete$/i.test(t[i + 1] ?? '')) || /^(-XDELETE|--(method|request)=DELETE)$/i.test(x),
  );

export const SYSTEM_RULES: Record<string, Rule> = {
  ...Object.fromEntries(Object.keys(REMOVE).map((n) => [n, packageRemoval])),
  ...Object.fromEntries(Object.keys(SYSTEM_VERBS).map((n) => [n, systemVerb])),
  ...Object.fromEntries(CLOUD.map((n) => [n, cloud])),
  ...Object.fromEntries(
    [
      'useradd',
      'userdel',
      'usermod',
      'groupadd',
      'groupdel',
      'groupmod',
      'passwd',
      'chpasswd',
      'adduser',
      'deluser',
      'addgroup',
      'delgroup',
      'visudo',
      'vipw',
      'chsh',
      'chfn',
      'gpasswd',
    ].map((n) => [n, accounts]),
  ),
  iptables,
  ip6tables: iptables,
  dpkg,
  rpm,
  pacman,
  'iptables-restore': (_a, ctx) => ctx.flag('iptables-restore'),
  'nft-restore': (_a, ctx) => ctx.flag('nft-restore'),
  rmmod: (_a, ctx) => ctx.flag('rmmod'),
  insmod: (_a, ctx) => ctx.flag('insmod'),
  modprobe: (args, ctx) => (args.some((a) => /^(-[a-zA-Z]*r|--remove)/.test(a.text)) ? ctx.flag('modprobe -r') : undefined),
  swapoff: (_a, ctx) => ctx.flag('swapoff'),
  date: (args, ctx) => {
    // `-I[FMT]` takes its value attached (`-Iseconds`); an operand not starting with + sets the clock.
    const f = parseFlags(
      args.filter((a) => !a.text.startsWith('-I')),
      ['-d', '-f', '-r', '--date', '--file', '--reference'],
    );
    if (has(f, 's', '--set', '--se') || f.positionals.some((a) => !a.text.startsWith('+'))) ctx.flag('date --set');
  },
  hostname: (args, ctx) =>
    args.some((a) => !a.text.startsWith('-') || /^(-[a-zA-Z]*[Fb]|--file|--boot)/.test(a.text))
      ? ctx.flag('hostname (sets the host name)')
      : undefined,
};
