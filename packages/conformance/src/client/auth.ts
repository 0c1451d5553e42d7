/**
 * The OAuth client a conformance scenario authorizes with, configured as a host would: the
 * credentials the suite hands over (a pre-registered client, a client credentials secret or
 * key), a client ID metadata document URL, and a browser step that follows the authorization
 * server's redirect without a browser (nothing listens on the redirect URI; the code is read
 * from the Location header, as the suite expects).
 */
import { type HttpAuth, type JsonObject, oauthClient } from 'palisade-mcp-client';

const REDIRECT_URI = 'http://localhost:3000/callback';
const CLIENT_METADATA_URL = 'https://conformance-test.local/client-metadata.json';

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function authFor(scenario: string, context: JsonObject): HttpAuth | undefined {
  const clientId = text(context['client_id']);
  const clientSecret = text(context['client_secret']);
  const privateKey = text(context['private_key_pem']);
  if (scenario.startsWith('auth/client-credentials')) {
    return oauthClient({
      grant: 'client_credentials',
      clientId: clientId ?? '',
      ...(clientSecret === undefined ? {} : { clientSecret }),
      ...(privateKey === undefined ? {} : { privateKey, privateKeyAlgorithm: 'ES256' }),
    });
  }
  const issuer = text(context['issuer']);
  return oauthClient({
    redirectUri: REDIRECT_URI,
    clientMetadataUrl: CLIENT_METADATA_URL,
    ...(clientId === undefined ? {} : { clientId }),
    ...(clientSecret === undefined ? {} : { clientSecret }),
    ...(issuer === undefined ? {} : { clientIssuer: issuer }),
    authorize: async ({ url }) => {
      // The browser step without a browser: the mock server answers 302 to the redirect URI.
      const response = await fetch(url, { redirect: 'manual' });
      const location = response.headers.get('location');
      if (location === null)
        throw new Error(`the authorization endpoint answered ${response.status} without a Location`);
      return new URL(location, url);
    },
  });
}
