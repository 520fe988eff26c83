/** Email addresses as the API accepts them: `a@example.com` or `Name <a@example.com>`. */

export interface Mailbox {
  name?: string;
  address: string;
}

export const ADDRESS_MAX_LENGTH = 254;
const LOCAL_MAX_LENGTH = 64;
const NAME_MAX_LENGTH = 200;
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+";
const LOCAL_PART = new RegExp(`^${ATOM}(\\.${ATOM})*$`);
const LABEL = /^(?!-)[A-Za-z0-9-]{1,63}(?<!-)$/;

/**
 * `Name <address>` split as `/^(.*?)\s*<([^<>]+)>$/` would, without its quadratic backtracking on long runs of
 * spaces: the address is what follows the last "<".
 */
function angleAddr(text: string): { name: string; address: string } | null {
  const open = text.lastIndexOf("<");
  if (open < 0 || !/^<[^<>]+>$/.test(text.slice(open))) return null;
  return { name: text.slice(0, open), address: text.slice(open + 1, -1) };
}

/** The domain part is lower-cased (domains are case-insensitive); the local part is kept as written. */
export function parseAddress(input: string): Mailbox | null {
  const trimmed = input.trim();
  const angled = angleAddr(trimmed);
  const rawName = angled ? angled.name.trim().replace(/^"(.*)"$/, "$1") : undefined;
  const address = angled ? angled.address.trim() : trimmed;
  if (rawName !== undefined && (rawName.length > NAME_MAX_LENGTH || /[\r\n\0]/.test(rawName))) return null;
  if (address.length > ADDRESS_MAX_LENGTH) return null;
  const at = address.lastIndexOf("@");
  if (at <= 0) return null;
  const local = address.slice(0, at);
  const domain = address.slice(at + 1).toLowerCase();
  if (local.length > LOCAL_MAX_LENGTH || !LOCAL_PART.test(local)) return null;
  if (!isDomainName(domain)) return null;
  return rawName ? { name: rawName, address: `${local}@${domain}` } : { address: `${local}@${domain}` };
}

/** A host name with at least two labels and an alphabetic top-level label. */
export function isDomainName(domain: string): boolean {
  if (domain.length > 253) return false;
  const labels = domain.split(".");
  if (labels.length < 2 || !labels.every((label) => LABEL.test(label))) return false;
  return /^[a-z]{2,63}$/i.test(labels[labels.length - 1]) || /^xn--[a-z0-9-]+$/i.test(labels[labels.length - 1]);
}

export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf("@") + 1).toLowerCase();
}

/** The key under which suppressions and contacts are kept: the whole address lower-cased. */
export function addressKey(address: string): string {
  return address.toLowerCase();
}

export function formatMailbox(mailbox: Mailbox): string {
  if (!mailbox.name) return mailbox.address;
  return `"${mailbox.name.replace(/["\\]/g, "\\$&")}" <${mailbox.address}>`;
}
