/**
 * Company ids: a company with a CIK is known by its CIK as EDGAR writes it, ten digits ("0000320193"); any other by
 * a slug of its name ("tata-consultancy-services"). A CIK without its leading zeros ("320193") is the same id.
 */

export const MAX_CIK = 9_999_999_999;
/** Lower-case letters, digits and single hyphens, with at least one letter (an all-digit id is a CIK). */
const SLUG = /^(?=[a-z0-9-]*[a-z])[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const MAX_ID_LENGTH = 64;

type CompanyRef = { kind: "cik"; cik: number } | { kind: "slug"; slug: string };

/** The ten-digit form of a CIK. */
export function cikId(cik: number): string {
  return String(cik).padStart(10, "0");
}

/** Reads an id; null when it is neither a CIK (1 to 10 digits, not zero) nor a slug. */
export function parseCompanyId(id: string): CompanyRef | null {
  if (/^\d{1,10}$/.test(id)) {
    const cik = Number(id);
    return cik > 0 ? { kind: "cik", cik } : null;
  }
  if (id.length <= MAX_ID_LENGTH && SLUG.test(id)) return { kind: "slug", slug: id };
  return null;
}
