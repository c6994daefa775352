/**
 * Items scoped to each project: on the subjects project questions ask about (every project has its
 * own dev port, deploy, tests …, so a leak from another project shows), and ordinary project notes.
 */
import type { MemoryKind } from '../../src/memory/types';
import type { CorpusItem, Planted } from './types';
import { TEMPLATES, type Pick } from './templates';
import * as V from './vocab';

type Topic = (p: Pick) => string;

/** Subject → a project's own note on it; a planted fact of the project on that subject replaces it. */
const TOPICS: Record<string, Topic> = {
  integration: (p) =>
    `Integration tests here run with \`${p.one(['make itest', 'npm run test:int', 'pytest -m integration', 'go test -tags=integration ./...'])}\`.`,
  port: (p) => `The dev server here runs on port ${p.int(3000, 9999)}.`,
  deploy: (p) => `Deploys of this project go through ${p.one(V.CI)}, job ${p.one(['deploy', 'release', 'publish'])}-${p.one(V.ENVS)}.`,
  local: (p) => `Run it locally with \`${p.one(['make dev', 'npm start', 'docker compose up', 'just run', 'poetry run serve'])}\`.`,
  e2e: (p) =>
    `End-to-end tests here are ${p.one(['Cypress', 'Playwright', 'Detox', 'Selenium'])} specs in ${p.one(['e2e/', 'tests/ui/', 'spec/system/'])}.`,
  release: (p) => `Releases of this project are tagged v* and built by ${p.one(V.CI)}.`,
  terraform: (p) => `Infrastructure for this project is changed with \`terraform apply\` by ${p.one(V.PEOPLE)} only.`,
  kubernetes: (p) => `This project runs on the ${p.one(['shared', 'internal', 'edge'])} Kubernetes cluster in ${p.one(V.REGIONS)}.`,
  hooks: (p) => `Pre-commit hooks here run ${p.one(V.FORMATTERS)} and the type checker.`,
  database: (p) => `This project's database is ${p.one(V.DATABASES)} on ${p.one(V.HOSTS)}.`,
  money: (p) => `Amounts in this project are ${p.one(['Decimal values', 'strings with two decimals', 'BigInt cents'])}.`,
  styling: (p) => `UI code here is styled with ${p.one(['Tailwind', 'styled-components', 'Sass', 'vanilla-extract'])}.`,
  charts: (p) => `Graphs here are drawn with ${p.one(['Chart.js', 'ECharts', 'Victory', 'Nivo'])}.`,
  backfill: (p) =>
    `Reruns for past days here are done with \`${p.one(['make rerun DAY=', 'airflow dags backfill', 'npm run replay --'])}\`.`,
  quality: (p) => `Checks on incoming data here are written as ${p.one(['dbt tests', 'pandera schemas', 'SQL asserts'])}.`,
  notifications: (p) => `Notifications from this project go out through ${p.one(['Firebase Cloud Messaging', 'SNS', 'Pusher'])}.`,
};

/** Which subject each planted project fact is on. */
const PLANTED_TOPIC: Record<string, string> = {
  'prj-pay-integration': 'integration',
  'prj-pay-port': 'port',
  'prj-pay-deploy': 'deploy',
  'prj-pay-money': 'money',
  'prj-web-local': 'local',
  'prj-web-css': 'styling',
  'prj-web-e2e': 'e2e',
  'prj-web-charts': 'charts',
  'prj-mob-release': 'release',
  'prj-mob-push': 'notifications',
  'prj-data-warehouse': 'database',
  'prj-data-backfill': 'backfill',
  'prj-data-quality': 'quality',
  'prj-infra-apply': 'terraform',
  'prj-infra-eks': 'kubernetes',
  'prj-infra-precommit': 'hooks',
};

/** `perProject` ordinary notes per project, plus one note per subject the project has no planted fact on. */
export function projectItems(
  projects: readonly string[],
  plantedFacts: readonly Planted[],
  p: Pick,
  perProject: number,
  seen: Set<string>,
): CorpusItem[] {
  const out: CorpusItem[] = [];
  for (const project of projects) {
    const planted = new Set(plantedFacts.filter((f) => f.project === project).map((f) => PLANTED_TOPIC[f.key]));
    const add = (kind: MemoryKind, content: string) => {
      // The same note may be in two projects (both use Tailwind), not twice in one.
      const key = `${project}\n${content}`;
      if (seen.has(content) || seen.has(key)) return false;
      seen.add(key);
      out.push({ kind, content, project });
      return true;
    };
    for (const [topic, make] of Object.entries(TOPICS)) if (!planted.has(topic)) while (!add('fact', make(p)));
    for (let i = 0; i < perProject;) if (add(...p.one(TEMPLATES)(p))) i++;
  }
  return out;
}
