// esbuild plugins shared by the bundle (scripts/bundle.mjs) and the single-file binary
// (scripts/build-binary.mjs).
import { fileURLToPath } from 'node:url';

const SHAMIR_CSPRNG = fileURLToPath(new URL('../dist/crypto/shamir-csprng.js', import.meta.url));

/**
 * shamir-secret-sharing draws its randomness through its own subpath `csprng`, one node:crypto
 * call per byte of secret; this gives it svc's pooled CSPRNG instead (dist/crypto/shamir-csprng.js,
 * the same contract). Call assertUsed() after the build: it fails if the library no longer
 * imports that subpath, rather than silently bundling the slow path.
 */
export function pooledShamirCsprng() {
  let resolved = 0;
  return {
    plugin: {
      name: 'pooled-shamir-csprng',
      setup(build) {
        build.onResolve({ filter: /^shamir-secret-sharing\/csprng$/ }, () => {
          resolved += 1;
          return { path: SHAMIR_CSPRNG };
        });
      },
    },
    assertUsed() {
      if (resolved === 0) {
        throw new Error('shamir-secret-sharing no longer imports `shamir-secret-sharing/csprng`: update pooledShamirCsprng in scripts/esbuild-plugins.mjs');
      }
    },
  };
}
