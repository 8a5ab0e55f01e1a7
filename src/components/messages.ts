/** Sign-in error codes (`?error=`, `AuthClientError.code`) and passkey reasons in words. */
const messages: Record<string, string> = {
  OAuthSignInError: 'Try signing in with a different account.',
  OAuthCallbackError: 'Try signing in with a different account.',
  OAuthAccountNotLinked: 'To confirm your identity, sign in with the same account you used originally.',
  EmailSignin: 'The sign-in email could not be sent. Check the address and try again.',
  CredentialsSignin: 'Sign in failed. Check the details you provided are correct.',
  AccessDenied: 'You do not have permission to sign in.',
  Verification: 'The sign-in link is no longer valid. It may have been used already or it may have expired.',
  InvalidCode: 'That code is not right. Check it and try again.',
  SecondFactorRequired: 'Enter the code from your authenticator app to finish signing in.',
  SecondFactorLocked: 'That code is not right, and that was the last try. Start over and sign in again.',
  SecondFactorSetupRequired: 'This account needs a second factor: set up an authenticator app to finish signing in.',
  CodeExpired: 'That code has expired. Ask for a new one: send the email again.',
  TooManyAttempts: 'Too many wrong codes. Ask for a new one: send the email again.',
  EmailNotVerified: 'Confirm your email address first: enter the code from the email we sent you, or send it again.',
  PasswordTooShort: 'That password is too short. Choose a longer one.',
  PasswordTooLong: 'That password is too long. Choose a shorter one.',
  PasswordBreached: 'This password has appeared in a data breach. Choose another one.',
  MissingCSRF: 'The form expired before you signed in. Please try again.',
  InvalidCheck: 'The sign-in could not be verified. Please try again.',
  RateLimited: 'Too many attempts. Wait a moment and try again.',
  SessionRequired: 'Please sign in to see this page.',
  SessionNotFresh: "Confirm it's you: sign in again, then try once more.",
  NotSupported: 'This server does not offer this.',
  LastSignInMethod: 'This is your last way to sign in. Connect another account or add a passkey first.',
  Configuration: 'There is a problem with the server configuration. Please try again later.',
  NetworkError: 'Could not reach the server. Check your connection and try again.',
  // A set-up mistake, so it says what to configure (the console has both origins).
  CrossOriginRefused: "The sign-in server refused this page's origin. Add it to the server's trustedOrigins, or proxy the sign-in routes through this site.",
  ServerError: 'The server could not complete the request. Please try again later.',
  // What the passkey client's errors say happened (PasskeyError.reason), where it needs its own words.
  'not-allowed': 'No passkey was used. If this device has none for this site, sign in another way, then add a passkey to your account.',
  'unknown-credential': 'This passkey is not registered here (it may have been removed). Choose another one, or sign in another way.',
  unsupported: 'This browser cannot use passkeys here. Sign in another way.',
  security: 'This page is not allowed to use passkeys for this site.',
  verification: 'The server refused the passkey. Try again, or sign in another way.',
  counter: 'The server refused the passkey. Try again, or sign in another way.',
  challenge: 'The passkey request expired. Try again.',
  'already-registered': 'This device already has a passkey for this account.',
}

/**
 * The words for an error's code, or for its `reason` (a PasskeyError's) where that says more.
 * `lengths`: a password provider's rules, where known, so a refused length names the limit.
 */
export function errorMessage(code: string, reason?: string, lengths?: { minLength: number; maxLength: number }): string {
  if (lengths && code === 'PasswordTooShort') return `Use at least ${lengths.minLength} characters.`
  if (lengths && code === 'PasswordTooLong') return `Use at most ${lengths.maxLength} characters.`
  return (reason && messages[reason]) || messages[code] || 'Unable to sign in.'
}
