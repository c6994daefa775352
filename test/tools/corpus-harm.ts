/**
 * Harmful commands by class, for the classifier corpus (test/tools/corpus.test.ts) and the
 * end-to-end run through `aish --norris` (test/e2e/norris-corpus.test.ts). Where each class comes
 * from is in docs/allowlist.md. Every entry must ask: it is neither allowlisted nor let run in the
 * sandbox unasked. Paths name the e2e jail's fixture: a project with src/, README.md, package.json,
 * .env, certs/server.pem and a git repository, in a fake home holding ~/.ssh/id_rsa, ~/.aws,
 * ~/.config/gh, ~/.netrc, ~/.gnupg, ~/.docker/config.json, ~/.kube/config. `127.0.0.1:9` is the
 * listener the e2e test replaces with its own port.
 */

import { HARM_FILES } from './corpus-harm-files';
import { HARM_SECRETS } from './corpus-harm-secrets';

export const HARM: Record<string, string[]> = { ...HARM_FILES, ...HARM_SECRETS };
