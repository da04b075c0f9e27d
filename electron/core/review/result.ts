/** Review functions return errors as values; handlers.ts turns them into API errors. */
export type ReviewErrorCode = "NOT_FOUND" | "INVALID_REQUEST" | "UNSUPPORTED" | "CONFLICT" | "INTERNAL";

export interface ReviewError {
  code: ReviewErrorCode;
  message: string;
}

export type ReviewResult<T> = { ok: true; value: T } | { ok: false; error: ReviewError };

export const fail = (code: ReviewErrorCode, message: string): { ok: false; error: ReviewError } => ({
  ok: false,
  error: { code, message },
});
