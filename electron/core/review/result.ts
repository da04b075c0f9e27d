/** Review functions return errors as values; handlers.ts turns them into API errors. */
import type { ApiErrorCode } from "../../../shared/api";
export type ReviewErrorCode = Extract<
  ApiErrorCode,
  "NOT_FOUND" | "INVALID_REQUEST" | "UNSUPPORTED" | "CONFLICT" | "INTERNAL" | "IMPORT_INVALID" | "IMPORT_TOO_LARGE" | "STORAGE"
>;

export interface ReviewError {
  code: ReviewErrorCode;
  message: string;
}

export type ReviewResult<T> = { ok: true; value: T } | { ok: false; error: ReviewError };

export const fail = (code: ReviewErrorCode, message: string): { ok: false; error: ReviewError } => ({
  ok: false,
  error: { code, message },
});
