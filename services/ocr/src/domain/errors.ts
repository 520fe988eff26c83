/** Failures the HTTP layer turns into the shared error envelope. */
export class InputLimitError extends Error {
  constructor(
    readonly field: string,
    readonly issue: string,
  ) {
    super(`${field} ${issue}`);
  }
}

export class InvalidOptionError extends Error {
  constructor(
    readonly field: string,
    readonly issue: string,
  ) {
    super(`${field} ${issue}`);
  }
}

export class UnsupportedFormatError extends Error {}

/** The input parses as a known format but cannot be turned into pages (corrupt, encrypted, ...). */
export class UnreadableInputError extends Error {}

export class OcrTimeoutError extends Error {
  constructor(readonly timeoutMs: number) {
    super(`OCR did not finish within the ${timeoutMs / 1000} s processing limit`);
  }
}

export class OcrBusyError extends Error {}
