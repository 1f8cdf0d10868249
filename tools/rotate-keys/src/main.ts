// Rotates the master key of the stored vendor keys: `DATABASE_URL=… PROVIDER_KEY_MASTER_KEYS=1:<old>,2:<new>
// node dist/tools/rotate-keys/main.js` re-seals every key under the newest version and exits 0 once none is
// left under an older one (docs/operations.md, "Rotating the master key").
import { runRotateKeys } from './rotate-keys.command';

void runRotateKeys(process.env, console).then((code) => {
  process.exitCode = code;
});
