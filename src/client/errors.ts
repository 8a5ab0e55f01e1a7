/** Every failure of the SDK: `code` is 'NetworkError', 'ServerError', or the server's error type (`?error=`). */
export class AuthClientError extends Error {
  readonly code: string
  constructor(code: string, message?: string) {
    super(message ?? code)
    this.name = 'AuthClientError'
    this.code = code
  }
}
