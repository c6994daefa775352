/** Vocabularies the bulk items are drawn from: real tools, conventions and commands developers note down. */

export const SERVICES = [
  'billing-api',
  'auth-service',
  'search-indexer',
  'notification-worker',
  'order-service',
  'inventory-sync',
  'user-profile',
  'pricing-engine',
  'report-builder',
  'media-uploader',
  'webhook-relay',
  'catalog-api',
  'shipping-quotes',
  'fraud-scorer',
  'ledger',
  'audit-log',
  'email-sender',
  'recommendation-api',
  'geo-lookup',
  'session-gateway',
  'export-worker',
  'tax-calculator',
  'image-resizer',
  'feature-store',
  'payout-scheduler',
  'chat-backend',
  'admin-panel',
  'partner-portal',
  'status-page',
  'rate-limiter',
];
export const DATABASES = [
  'Postgres',
  'MySQL',
  'Redis',
  'MongoDB',
  'SQLite',
  'ClickHouse',
  'DynamoDB',
  'Cassandra',
  'Elasticsearch',
  'CockroachDB',
];
export const ENVS = ['staging', 'production', 'dev', 'qa', 'sandbox', 'preview'];
export const PEOPLE = [
  'Alice',
  'Bob',
  'Carmen',
  'Deepak',
  'Elena',
  'Farid',
  'Grace',
  'Hiro',
  'Ines',
  'Jonas',
  'Kemal',
  'Lena',
  'Marco',
  'Nadia',
  'Oleg',
  'Paula',
  'Quentin',
  'Rosa',
  'Sven',
  'Tomás',
  'Uma',
  'Victor',
  'Wen',
  'Yusuf',
  'Zoe',
  'Aiko',
  'Bruno',
  'Chiara',
];
export const TEAMS = ['platform', 'payments', 'growth', 'data', 'mobile', 'infra', 'security', 'search', 'checkout', 'identity'];
export const CI = ['GitHub Actions', 'GitLab CI', 'Jenkins', 'CircleCI', 'Buildkite', 'Drone', 'TeamCity'];
export const MONITORING = ['Grafana', 'Prometheus', 'Datadog', 'New Relic', 'Honeycomb', 'Kibana', 'Sentry', 'Jaeger'];
export const LANGS = ['TypeScript', 'Go', 'Python', 'Rust', 'Java', 'Kotlin', 'Ruby', 'Elixir', 'C#', 'Swift', 'PHP', 'Scala'];
export const TEST_TOOLS = [
  'Jest',
  'Vitest',
  'pytest',
  'go test',
  'JUnit',
  'RSpec',
  'Mocha',
  'Playwright',
  'Cypress',
  'ExUnit',
  'cargo test',
];
export const FORMATTERS = ['Prettier', 'black', 'gofmt', 'rustfmt', 'ktlint', 'rubocop', 'isort', 'clang-format', 'Biome'];
export const EDITORS = ['VS Code', 'Neovim', 'IntelliJ IDEA', 'Emacs', 'Zed', 'Sublime Text', 'Helix', 'GoLand', 'PyCharm'];
export const SHELLS = ['zsh', 'bash', 'fish', 'nushell'];
export const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn', 'pip', 'poetry', 'uv', 'cargo', 'go modules', 'bundler', 'gradle', 'maven'];
export const CLOUDS = ['AWS', 'GCP', 'Azure', 'Hetzner', 'DigitalOcean', 'Fly.io'];
export const REGIONS = ['eu-west-1', 'us-east-1', 'us-west-2', 'eu-central-1', 'ap-southeast-1', 'europe-west4', 'westeurope'];
export const QUEUES = ['RabbitMQ', 'Kafka', 'SQS', 'NATS', 'Pub/Sub', 'Redis streams', 'Celery'];
export const SECRET_STORES = ['1Password', 'AWS Secrets Manager', 'Doppler', 'SOPS files', 'GCP Secret Manager', 'Bitwarden'];
export const CHANNELS = ['#dev', '#backend', '#frontend', '#ops', '#releases', '#alerts', '#random', '#help-infra', '#data-eng', '#qa'];
export const DAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'];
export const TIMES = ['09:00', '09:30', '10:00', '10:15', '11:00', '13:30', '14:00', '15:00', '16:30'];
export const BRANCHES = ['main', 'develop', 'master', 'trunk', 'release'];
export const COMMIT_STYLES = ['Conventional Commits', 'imperative mood', 'gitmoji', 'ticket-prefixed'];
export const FILES = [
  'docker-compose.yml',
  '.env.example',
  'Makefile',
  'tsconfig.json',
  'pyproject.toml',
  'go.mod',
  'Cargo.toml',
  '.github/workflows/ci.yml',
  'helm/values.yaml',
  'config/default.yaml',
  'package.json',
  '.editorconfig',
  'Procfile',
  'justfile',
  'renovate.json',
  'CODEOWNERS',
];
export const COMMANDS: ReadonlyArray<[cmd: string, purpose: string]> = [
  ['git log --oneline --graph', 'see the branch history at a glance'],
  ['docker system prune -af', 'free disk space taken by old images'],
  ['kubectl get pods -n {ns}', 'list the pods of a namespace'],
  ['kubectl logs -f deploy/{svc}', 'follow the logs of a deployment'],
  ['psql "$DATABASE_URL"', 'open a SQL shell on the local database'],
  ['redis-cli -p {port} monitor', 'watch Redis commands live'],
  ['git bisect run npm test', 'find the commit that broke the tests'],
  ['npm ci --no-audit', 'install exactly what the lockfile says'],
  ['terraform plan -out plan.bin', 'preview infrastructure changes'],
  ['aws sso login --profile {env}', 'get AWS credentials for an account'],
  ['gh pr checkout {n}', 'check out a pull request locally'],
  ['jq . response.json', 'pretty-print a JSON response'],
  ['rg --hidden -g "!.git" TODO', 'search the repository for TODOs'],
  ['lsof -i :{port}', 'find what process holds a port'],
  ['curl -sS localhost:{port}/healthz', 'check that a service is healthy'],
  ['openssl s_client -connect {host}:443', 'inspect a TLS certificate'],
  ['docker compose logs -f {svc}', 'tail a compose service'],
  ['helm upgrade --install {svc} ./chart', 'roll out a chart'],
  ['git worktree add ../{svc}-wt', 'work on two branches at once'],
  ['pg_dump -Fc {db} > {db}.dump', 'take a database dump'],
  ['htop', 'see what eats CPU on a box'],
  ['du -sh * | sort -h', 'find what fills a disk'],
  ['ssh -L {port}:localhost:{port} {host}', 'forward a remote port to the laptop'],
  ['make lint', 'run the static checks'],
  ['pytest -x -k {name}', 'run one failing test first'],
  ['go test -run {Name} ./...', 'run a single Go test'],
  ['cargo clippy -- -D warnings', 'run clippy with warnings as errors'],
  ['npx tsc --noEmit', 'type-check without building'],
];
export const TICKET_PREFIXES = ['PLAT', 'PAY', 'WEB', 'MOB', 'DATA', 'OPS', 'SEC', 'GROW'];
export const TASKS = [
  'move the cron jobs to Kubernetes CronJobs',
  'add retries with backoff to the webhook client',
  'split the monolith user module',
  'upgrade to Node 20',
  'replace moment.js with date-fns',
  'add an index on orders.created_at',
  'cache the pricing lookups',
  'remove the legacy v1 endpoints',
  'add tracing to the checkout flow',
  'migrate the CI to self-hosted runners',
  'paginate the export endpoint',
  'fix the timezone bug in reports',
  'add a dark mode toggle',
  'shard the events table',
  'rotate the service account keys',
  'reduce the Docker image size',
  'add contract tests for the partner API',
  'make the search results deterministic',
];
export const HOSTS = [
  'db-1.internal',
  'cache-2.internal',
  'api.acme.dev',
  'jump.acme.net',
  'build-03.ci.internal',
  'metrics.acme.internal',
];
