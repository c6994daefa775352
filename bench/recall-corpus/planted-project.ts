/**
 * Planted project facts, asked about from inside their project (class `project`). The questions
 * are the ones people ask in a repository ("how do I run this locally?"): global items and the
 * other projects' items on the same subject (project-items.ts) compete with the right one.
 */
import type { Planted } from './types';

export const PROJECTS = ['payments-api', 'web-dashboard', 'mobile-app', 'data-pipeline', 'infra-live', 'docs-site'] as const;

export const PLANTED_PROJECT: readonly Planted[] = [
  {
    key: 'prj-pay-integration',
    project: 'payments-api',
    content: 'Integration tests here need `docker compose up -d postgres` first, then `make test-integration`.',
    question: 'how do I run the integration tests?',
  },
  {
    key: 'prj-pay-port',
    project: 'payments-api',
    content: 'The payments API dev server runs on port 8081 because 8080 is taken by the ledger mock.',
    question: 'what port does the dev server run on?',
  },
  {
    key: 'prj-pay-deploy',
    project: 'payments-api',
    content: 'Deploys of this service go through the `payments-prod` Argo CD application; sync is manual.',
    question: 'how do I deploy this service?',
  },
  {
    key: 'prj-pay-money',
    project: 'payments-api',
    content: 'Money amounts in this codebase are integers in minor units (cents); never use floats.',
    question: 'how are money amounts represented in this codebase?',
  },
  {
    key: 'prj-web-local',
    project: 'web-dashboard',
    content: 'Run the dashboard locally with `pnpm dev`; it proxies /api to staging.',
    question: 'how do I run this locally?',
  },
  {
    key: 'prj-web-css',
    project: 'web-dashboard',
    content: 'Components here use CSS modules, not Tailwind; class names are camelCase.',
    question: 'what styling do components use here?',
  },
  {
    key: 'prj-web-e2e',
    project: 'web-dashboard',
    content: 'The end-to-end tests are Playwright specs in tests/e2e, run with `pnpm test:e2e`.',
    question: 'how do I run the end-to-end tests?',
  },
  {
    key: 'prj-web-charts',
    project: 'web-dashboard',
    content: 'Charts in the dashboard use Recharts; the old D3 charts are being removed.',
    question: 'which chart library do we use?',
  },
  {
    key: 'prj-mob-xcode',
    project: 'mobile-app',
    content: 'iOS builds need Xcode 15.2 exactly; newer Xcode breaks the React Native 0.72 build.',
    question: 'which Xcode version do I need for the ios build?',
  },
  {
    key: 'prj-mob-android',
    project: 'mobile-app',
    content: 'Run the app on the Android emulator with `npx react-native run-android --variant=devDebug`.',
    question: 'how do I run the app on the android emulator?',
  },
  {
    key: 'prj-mob-push',
    project: 'mobile-app',
    content: 'Push notifications here are sent via OneSignal; the app id is in app.config.ts.',
    question: 'how are push notifications sent?',
  },
  {
    key: 'prj-mob-release',
    project: 'mobile-app',
    content: 'Releases of the app go out through the Fastlane lanes `beta` and `release`.',
    question: 'how do I ship a release of the app?',
  },
  {
    key: 'prj-data-dbt',
    project: 'data-pipeline',
    content: "This pipeline's dbt models are run with `dbt build --select tag:daily`.",
    question: 'how do I run the daily dbt models?',
  },
  {
    key: 'prj-data-warehouse',
    project: 'data-pipeline',
    content: 'The warehouse for this project is Snowflake: database ANALYTICS, warehouse TRANSFORM_WH.',
    question: 'which warehouse and database does this project use?',
  },
  {
    key: 'prj-data-backfill',
    project: 'data-pipeline',
    content: 'Backfills here are run with `make backfill START=YYYY-MM-DD END=YYYY-MM-DD`.',
    question: 'how do I backfill a date range?',
  },
  {
    key: 'prj-data-quality',
    project: 'data-pipeline',
    content: 'Data quality checks are Great Expectations suites in expectations/.',
    question: 'where are the data quality checks?',
  },
  {
    key: 'prj-infra-apply',
    project: 'infra-live',
    content: 'Apply changes here with `terragrunt run-all apply` from the environment directory, never from the root.',
    question: 'how do I apply terraform changes here?',
  },
  {
    key: 'prj-infra-eks',
    project: 'infra-live',
    content: 'The production Kubernetes cluster in this repo is EKS 1.28 in eu-west-1.',
    question: 'which version is the production kubernetes cluster?',
  },
  {
    key: 'prj-infra-unlock',
    project: 'infra-live',
    content: 'Stuck state locks here are released with `terragrunt force-unlock <id>`, only after asking in #infra.',
    question: 'how do I release a stuck state lock?',
  },
  {
    key: 'prj-infra-precommit',
    project: 'infra-live',
    content: 'Pre-commit hooks here run tflint and terraform fmt.',
    question: 'what do the pre-commit hooks run?',
  },
];
