/** normalizeRemoteUrl: every spelling of one remote gives one identity; what names no repository gives none. */
import { describe, expect, it } from 'vitest';
import { normalizeRemoteUrl } from '../../src/memory/project/remote-url';

const SHOP = 'github.com/acme/shop';

const table: Array<[string, string | undefined]> = [
  // one repository, many spellings
  ['git@github.com:acme/shop.git', SHOP],
  ['git@github.com:acme/shop', SHOP],
  ['github.com:acme/shop.git', SHOP],
  ['ssh://git@github.com/acme/shop', SHOP],
  ['ssh://git@github.com:22/acme/shop.git', SHOP],
  ['git+ssh://git@github.com/acme/shop.git', SHOP],
  ['https://github.com/acme/shop.git', SHOP],
  ['https://github.com/acme/shop', SHOP],
  ['https://github.com/acme/shop/', SHOP],
  ['https://github.com/acme/shop.git/', SHOP],
  ['https://github.com:443/acme/shop', SHOP],
  ['http://github.com:80/acme/shop', SHOP],
  ['git://github.com/acme/shop.git', SHOP],
  ['git://github.com:9418/acme/shop', SHOP],
  ['HTTPS://GitHub.COM/acme/shop', SHOP],
  ['https://github.com./acme/shop', SHOP],
  ['  https://github.com/acme/shop  ', SHOP],
  ['https://github.com//acme///shop', SHOP],
  ['https://github.com/acme/./shop', SHOP],
  // credentials are dropped, never part of the identity
  ['https://user:token@github.com/acme/shop/', SHOP],
  ['https://ghp_abc123secret@github.com/acme/shop.git', SHOP],
  ['https://user:p%40ss@word@github.com/acme/shop', SHOP],
  ['ssh://deploy:hunter2@github.com/acme/shop', SHOP],
  // query strings and fragments are not part of a repository's name
  ['https://github.com/acme/shop.git?token=abc#readme', SHOP],
  ['https://github.com/acme/shop?x=1', SHOP],
  // `..` resolved; above the top names nothing
  ['https://github.com/evil/../acme/shop', SHOP],
  ['https://github.com/../../etc/passwd', undefined],
  ['git@github.com:../acme/shop', undefined],
  // a percent-escaped unreserved character is the character
  ['https://github.com/%61cme/shop', SHOP],
  // case of the path is kept (only some servers ignore it); other ports are kept
  ['https://github.com/Acme/Shop', 'github.com/Acme/Shop'],
  ['ssh://git@example.com:2222/acme/shop.git', 'example.com:2222/acme/shop'],
  ['https://example.com:8443/acme/shop', 'example.com:8443/acme/shop'],
  ['https://example.com:0443/acme/shop', 'example.com:443/acme/shop'],
  ['ssh://[::1]:2222/acme/shop', '[::1]:2222/acme/shop'],
  // scp-like with an absolute or home path agrees with ssh://
  ['git@example.com:/srv/git/shop.git', 'example.com/srv/git/shop'],
  ['ssh://git@example.com/srv/git/shop.git', 'example.com/srv/git/shop'],
  ['me@example.com:~/shop.git', 'example.com/~/shop'],
  // local remotes: their absolute path
  ['/srv/git/shop.git', '/srv/git/shop'],
  ['/srv/git/shop.git/', '/srv/git/shop'],
  ['/srv/git/../git/shop', '/srv/git/shop'],
  ['file:///srv/git/shop.git', '/srv/git/shop'],
  ['file://localhost/srv/git/shop', '/srv/git/shop'],
  ['FILE:///srv/git/shop', '/srv/git/shop'],
  ['../shop.git', '/home/u/shop'],
  ['./sub/shop', '/home/u/work/sub/shop'],
  // names nothing
  ['', undefined],
  ['   ', undefined],
  ['https://github.com/', undefined],
  ['https://github.com', undefined],
  ['git@github.com:', undefined],
  ['https:///acme/shop', undefined],
  ['https://bad host/acme/shop', undefined],
  ['https://github.com/acme/shop\nhttps://evil.com/x', undefined],
  ['https://github.com/acme/\u0000shop', undefined],
  ['file://otherhost/srv/shop', undefined],
  ['https://github.com:abc/acme/shop', undefined],
  ['https://github.com/.git', undefined],
  ['/', undefined],
];

describe('normalizeRemoteUrl', () => {
  it.each(table)('%j → %j', (url, want) => {
    expect(normalizeRemoteUrl(url, '/home/u/work')).toBe(want);
  });

  it('ssh and https spellings of one remote agree; different repositories do not', () => {
    const a = normalizeRemoteUrl('git@example.com:acme/shop.git');
    expect(a).toBe(normalizeRemoteUrl('https://example.com/acme/shop'));
    expect(a).not.toBe(normalizeRemoteUrl('https://example.com/acme/shop2'));
    expect(a).not.toBe(normalizeRemoteUrl('https://example.org/acme/shop'));
  });

  it('a credential never reaches the identity', () => {
    for (const url of ['https://alice:s3cr3t-t0ken@example.com/acme/shop', 'ssh://alice:s3cr3t-t0ken@example.com/acme/shop'])
      expect(normalizeRemoteUrl(url)).not.toContain('s3cr3t');
  });
});
