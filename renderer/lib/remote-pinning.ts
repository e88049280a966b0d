/**
 * Pinfold as a remote pinning service (the IPFS Pinning Service API at `/psa`, contract section 11): the
 * endpoint a client is given and the Kubo command that adds it, from the origin the window talks to.
 */

export function psaEndpoint(serviceOrigin: string): string {
  return `${serviceOrigin.replace(/\/+$/, '')}/psa`;
}

/**
 * `ipfs pin remote service add pinfold <endpoint> <token>`: with the key's token when the service has
 * just given it (a new key), else the placeholder to paste it into.
 */
export function kuboServiceAddCommand(serviceOrigin: string, token = '<token>'): string {
  return `ipfs pin remote service add pinfold ${psaEndpoint(serviceOrigin)} ${token}`;
}
