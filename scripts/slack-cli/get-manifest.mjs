// The Slack CLI's `get-manifest` hook: manifest.yml (the one source) in its Socket Mode variant, as
// JSON. `slack run` creates and updates the development app from it; nothing else keeps a copy.
import { readManifest, socketModeManifest } from '../manifest.mjs';
import { respond } from './protocol.mjs';

try {
  respond(socketModeManifest(readManifest()));
} catch (error) {
  process.stderr.write(`get-manifest: could not read manifest.yml: ${error.message}\n`);
  process.exit(1);
}
