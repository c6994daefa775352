/** Planted global facts asked about in their own words (class `own`). */
import type { Planted } from './types';

export const PLANTED_OWN: readonly Planted[] = [
  {
    key: 'own-stripe-rotation',
    content: "The billing service's Stripe webhook secret rotates every 90 days; the rotation runbook is docs/runbooks/stripe.md.",
    question: 'where is the stripe webhook secret rotation runbook?',
  },
  {
    key: 'own-grafana-gateway',
    content: "Grafana dashboards for the API gateway are under the folder 'Edge / Gateway'.",
    question: 'which grafana folder has the api gateway dashboards?',
  },
  {
    key: 'own-session-redis',
    content: 'Redis for session storage runs on port 6380, not the default 6379.',
    question: 'what port does the session redis use?',
  },
  {
    key: 'own-airflow-dag',
    content: 'The nightly ETL job is scheduled with Airflow; the DAG id is `warehouse_nightly_load`.',
    question: "what's the airflow dag id for the nightly etl job?",
  },
  {
    key: 'own-make-bootstrap',
    content: 'Use `make bootstrap` to set up a fresh laptop: it installs Homebrew packages, asdf plugins and the git hooks.',
    question: 'what does make bootstrap install on a fresh laptop?',
  },
  {
    key: 'own-launchdarkly',
    content: 'Feature flags are managed in LaunchDarkly; the flag for the new checkout is `checkout-v2`.',
    question: "what's the launchdarkly feature flag for the new checkout?",
  },
  {
    key: 'own-wireguard',
    content: 'The office VPN is WireGuard; config files are handed out by Priya.',
    question: 'who hands out the wireguard vpn config files?',
  },
  {
    key: 'own-tf-state',
    content: 'Terraform state is stored in the S3 bucket acme-tf-state with DynamoDB locking.',
    question: 'which s3 bucket stores the terraform state?',
  },
  {
    key: 'own-graphql-codegen',
    content: 'The GraphQL schema types are generated with `npm run codegen` into src/generated/graphql.ts.',
    question: 'how do I regenerate the graphql schema types with codegen?',
  },
  {
    key: 'own-cypress-preview',
    content: 'Cypress end-to-end tests run against the preview deployment of each pull request.',
    question: 'what do the cypress end-to-end tests run against?',
  },
  {
    key: 'own-kafka-orders',
    content: 'The Kafka topic for order events is `orders.v1` with 12 partitions.',
    question: 'how many partitions does the kafka topic for order events have?',
  },
  {
    key: 'own-black-ruff',
    content: 'Python services are formatted with black and checked with ruff; line length is 100.',
    question: 'what line length do black and ruff use?',
  },
  {
    key: 'own-legacy-cron',
    content: 'Cron jobs on the legacy box are listed in /etc/cron.d/acme and owned by the deploy user.',
    question: 'where are the cron jobs on the legacy box listed?',
  },
  {
    key: 'own-storybook',
    content: "The design system's Storybook is published to storybook.acme.dev on every merge to main.",
    question: 'where is the design system storybook published?',
  },
  {
    key: 'own-chartmuseum',
    content: 'Our Helm charts are versioned separately and published to the ChartMuseum at charts.acme.internal.',
    question: 'where are our helm charts published?',
  },
  {
    key: 'own-cloudfront',
    content: 'The CDN is CloudFront; cache invalidations are done with `aws cloudfront create-invalidation`.',
    question: 'how do I do a cloudfront cache invalidation?',
  },
  {
    key: 'own-hotfix-branch',
    content: 'Hotfix branches are cut from the latest release tag and named hotfix/<ticket>.',
    question: 'what are hotfix branches cut from, and how are they named?',
  },
  {
    key: 'own-gpu-toleration',
    content: 'The GPU training nodes are in the ml-gpu node pool and need the nvidia.com/gpu toleration.',
    question: 'what toleration do the gpu training nodes need?',
  },
  {
    key: 'own-invoice-pdf',
    content: 'Invoices are rendered to PDF with Puppeteer in the invoice-renderer service.',
    question: 'what renders invoices to pdf?',
  },
  {
    key: 'own-jira-grooming',
    content: 'Our Jira project key is PLAT; tickets move from Triage to Ready during grooming on Tuesdays.',
    question: 'when do PLAT jira tickets get groomed?',
  },
  {
    key: 'own-bastion',
    content: 'The SSH bastion host is bastion.acme.net and requires a hardware key (YubiKey).',
    question: 'what is the ssh bastion host?',
  },
  {
    key: 'own-k6',
    content: 'Load tests are written in k6 and live in perf/k6; the baseline is 2,000 requests per second.',
    question: 'where do the k6 load tests live?',
  },
  {
    key: 'own-android-key',
    content: 'Android builds are signed with the upload key kept in the Play Console, never committed to git.',
    question: 'where is the android upload key kept?',
  },
  {
    key: 'own-deploy-channel',
    content: 'The Slack channel for deploy announcements is #deploys; incidents go to #incident-room.',
    question: 'which slack channel gets deploy announcements?',
  },
  {
    key: 'own-rounding',
    content: "The price calculation rounds half to even (banker's rounding) to match the accounting system.",
    question: 'what rounding does the price calculation use?',
  },
  {
    key: 'own-vite',
    content: 'Webpack was replaced by Vite in the admin panel in March; the old webpack config is gone.',
    question: 'when was webpack replaced by vite in the admin panel?',
  },
  {
    key: 'own-mongo-limit',
    content: 'The MongoDB cluster for the catalog has a 16 MB document limit that product bundles have hit before.',
    question: 'what mongodb document limit did catalog product bundles hit?',
  },
  {
    key: 'own-fossa',
    content: 'The license scanner FOSSA blocks merges that add GPL dependencies.',
    question: 'does the fossa license scanner block gpl dependencies?',
  },
  {
    key: 'own-nginx-body',
    content: 'Nginx in front of the legacy PHP app has client_max_body_size set to 50m for uploads.',
    question: 'what is client_max_body_size in nginx for the legacy php app?',
  },
  {
    key: 'own-rebase',
    kind: 'pref',
    content: 'Prefers rebasing feature branches onto main over merge commits.',
    question: 'should I rebase feature branches onto main or use merge commits?',
  },
];
