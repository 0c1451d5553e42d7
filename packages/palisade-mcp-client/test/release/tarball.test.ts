/**
 * What `npm publish` would upload for palisade-mcp-client: the compiled modules and their
 * declarations, the manifest, the README and the licence; no source, test, map or build info
 * (the checks every compiled workspace shares, in the server package's test support).
 */
import { describeTarball } from '../../../palisade-mcp/test/support/release-tarball.js';

describeTarball('palisade-mcp-client');
