/**
 * Planted global facts asked about in other words (class `other`): the question shares few or no
 * words with the fact — an abbreviation, another form of the word, or a synonym, as people ask.
 */
import type { Planted } from './types';

export const PLANTED_OTHER: readonly Planted[] = [
  {
    key: 'oth-eslint',
    content: 'The frontend linter is ESLint with the airbnb-typescript config; run `pnpm eslint . --fix` from web/.',
    question: 'how do I lint the web code?',
  },
  {
    key: 'oth-segfault',
    content: 'When the ingest worker segfaults, grab the core dump from /var/crash on its host and attach it to the ticket.',
    question: 'the importer keeps crashing, what should I collect?',
  },
  {
    key: 'oth-approvals',
    content: 'Pull requests need two approvals and a green pipeline before merging to main.',
    question: 'how many reviews does a PR need?',
  },
  {
    key: 'oth-replica',
    content: 'The reporting database is a read replica at reports-db.internal:5432; never run writes against it.',
    question: 'which DB should analytics queries hit?',
  },
  {
    key: 'oth-manifests',
    content: 'Kubernetes manifests for all services live in the deploy repository under clusters/prod.',
    question: 'where are the k8s yamls kept?',
  },
  {
    key: 'oth-keycloak',
    content: 'Authentication goes through Keycloak; the realm is `acme` and the admin console is at sso.acme.dev.',
    question: 'what handles login for our apps?',
  },
  {
    key: 'oth-freeze',
    content: 'Production releases are frozen on Fridays after 14:00 CET.',
    question: 'can I ship to prod on a friday afternoon?',
  },
  {
    key: 'oth-staging-reset',
    content: 'The staging environment reloads its data every Sunday night from an anonymized production snapshot.',
    question: 'when does stg get wiped?',
  },
  {
    key: 'oth-notify-env',
    content: 'The notification service reads its configuration from environment variables prefixed NOTIFY_.',
    question: 'where does the notifications cfg come from?',
  },
  {
    key: 'oth-renovate',
    content: 'Dependencies are updated by Renovate every Monday; auto-merge is on for patch releases.',
    question: 'who bumps our deps, and how often?',
  },
  {
    key: 'oth-lcp',
    content: 'Performance budget for the checkout page: largest contentful paint under 2.5 seconds on a mid-range phone.',
    question: "what's the perf target for how fast checkout loads?",
  },
  {
    key: 'oth-atlantis',
    content: 'Terraform in infra/ is applied by Atlantis from pull request comments.',
    question: 'how do infra changes get rolled out?',
  },
  {
    key: 'oth-org-owners',
    content: 'GitHub org owners are Dana and Luis; ask in #it-help to be added to a team.',
    question: 'who can give me access to a repo?',
  },
  {
    key: 'oth-buildkite',
    content: 'Continuous integration runs on Buildkite; the agent queue for heavy jobs is `large`.',
    question: 'which CI do we use, and where do big builds go?',
  },
  {
    key: 'oth-rate-limit',
    content: 'The public API allows 600 requests per minute per token; above that it answers 429.',
    question: 'how many calls can a client make before getting throttled?',
  },
  {
    key: 'oth-sentry',
    content: 'Backend exceptions are reported to Sentry, project slug `core-backend`.',
    question: 'where can I see errors thrown by the server?',
  },
  {
    key: 'oth-heap',
    content: 'Memory leaks in the Node services are diagnosed with heap snapshots via `node --inspect` and Chrome DevTools.',
    question: 'how do I debug a process whose RAM keeps growing?',
  },
  {
    key: 'oth-flyway',
    content: 'Billing uses Flyway; migration files go in billing/db/migration named V<n>__name.sql.',
    question: 'where do I put a new schema change for billing?',
  },
  {
    key: 'oth-postmark',
    content: 'Customer emails are sent through Postmark; templates are edited in the Postmark dashboard, not in code.',
    question: 'how do I change the wording of the password reset mail?',
  },
  {
    key: 'oth-mkcert',
    content: 'Local HTTPS uses mkcert: run `mkcert -install` once, then `mkcert localhost`.',
    question: 'how do I get a trusted TLS cert for my dev machine?',
  },
  {
    key: 'oth-opsgenie',
    content: 'The on-call engineer is paged through Opsgenie; after 15 minutes it escalates to the team lead.',
    question: 'who gets woken up when something breaks at night?',
  },
  {
    key: 'oth-registry',
    content: 'Docker images are stored in the GitLab container registry at registry.gitlab.com/acme/images.',
    question: 'where do built images get pushed?',
  },
  {
    key: 'oth-go-race',
    content: 'Go unit tests run with `go test ./... -race`; the race detector is mandatory in CI.',
    question: 'how do I check the golang specs for concurrency bugs?',
  },
  {
    key: 'oth-utc',
    content: "Timestamps are stored in UTC and converted to the user's time zone only in the UI.",
    question: 'what tz do we save dates in?',
  },
  {
    key: 'oth-es-reindex',
    content: 'The search cluster is Elasticsearch 8 with three nodes; reindexing takes about forty minutes.',
    question: 'how long does rebuilding the ES index take?',
  },
  {
    key: 'oth-release-please',
    content: 'Release notes are generated from conventional commit messages by release-please.',
    question: 'how is the changelog produced?',
  },
  {
    key: 'oth-loki',
    content: 'Logs are shipped with Fluent Bit to Loki and queried in Grafana Explore.',
    question: 'where can I grep yesterday’s container output?',
  },
  {
    key: 'oth-vault',
    content: 'Secrets are kept in HashiCorp Vault at vault.acme.internal; use `vault kv get secret/<service>`.',
    question: 'how do I fetch the password for a service?',
  },
  {
    key: 'oth-crashlytics',
    content: "The mobile apps' crash reports come from Firebase Crashlytics; Android and iOS are separate projects there.",
    question: 'where do I see why the iPhone app keeps dying?',
  },
  {
    key: 'oth-pg-stat',
    content: 'Slow SQL over 500 ms shows up in the pg_stat_statements view on the primary.',
    question: 'how do I find sluggish statements in the db?',
  },
];
