/** An inbox is private when reading it takes more than its id: a password or an address allowlist. */
export function isPrivate(inbox: { basic_auth_username: string | null; ip_allowlist: readonly string[] }): boolean {
  return inbox.basic_auth_username !== null || inbox.ip_allowlist.length > 0;
}
