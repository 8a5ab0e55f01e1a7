/**
 * What the server's own HTML pages (and the emails) say, in English: the catalogue
 * every other language matches key for key (test/server/page-languages.test.ts). `{name}` is
 * filled in.
 */
export default {
  // Error codes (`?error=`) in words, on the error page and above the sign-in forms.
  AccessDenied: 'You do not have permission to sign in.',
  Verification: 'The sign-in link is no longer valid. It may have been used already or it may have expired.',
  InvalidCode: 'That code is not right. Check it and try again.',
  CodeAlreadyUsed: 'That code was used already. Wait for your authenticator app to show the next one, then enter it.',
  CodeExpired: 'That code has expired. Ask for a new one.',
  TooManyAttempts: 'Too many wrong codes. Ask for a new one.',
  CredentialsSignin: 'Sign-in failed. Check the details you provided.',
  OAuthAccountNotLinked: 'This account is linked to another user, or its email address belongs to another user. Sign in the way you did before.',
  OAuthSignInError: 'Signing in with the provider could not start. Try again.',
  OAuthCallbackError: 'The provider did not complete the sign-in. Try again.',
  EmailSignin: 'The sign-in email could not be sent. Check the address.',
  EmailNotVerified: 'Confirm your email address first: open the link in the email we sent you.',
  PasswordTooShort: 'That password is too short. Choose a longer one.',
  PasswordTooLong: 'That password is too long. Choose a shorter one.',
  PasswordBreached: 'This password has appeared in a data breach. Choose another one.',
  MissingCSRF: 'The form expired. Reload the page and try again.',
  InvalidCheck: 'The sign-in could not be verified. Start again.',
  RateLimited: 'Too many attempts. Wait a moment and try again.',
  StoreUnavailable: 'The service is unavailable for a moment. Try again in a few seconds.',
  SessionNotFresh: "Confirm it's you first: sign in again the way you did before, then add the new way to sign in.",
  WebAuthnVerificationError: 'The passkey could not be verified.',
  SecondFactorRequired: 'Enter the code from your authenticator app to finish signing in.',
  SecondFactorSetupRequired: 'This account needs a second factor: set up an authenticator app to finish signing in.',
  Configuration: 'There is a problem with the server configuration. The server log has the details.',
  // The error page.
  errorTitle: 'Sign-in error',
  tryAgain: 'Try again',
  // The sign-in page and the forms each way to sign in draws on it.
  signIn: 'Sign in',
  signInWith: 'Sign in with {name}',
  noProviders: 'No providers are configured.',
  email: 'Email',
  password: 'Password',
  // The second step of a sign-in with an authenticator app.
  appCode: 'Code from your authenticator app',
  trustDevice: "Don't ask again on this device for {duration}",
  continue: 'Continue',
  useRecoveryCode: 'Use a recovery code',
  recoveryCode: 'Recovery code',
  // The sign-out and verify-request pages.
  signOut: 'Sign out',
  checkEmail: 'Check your email',
  linkSent: 'A sign-in link has been sent to your email address.',
  // The page a sign-in link opens in another browser than the one that asked for it.
  signInHereAs: 'Sign in as {email} on this device?',
  signedInAs: 'This browser is signed in as {who}. Continuing signs that account out here.',
  signInAs: 'Sign in as {email}',
  staySignedInAs: 'Stay signed in as {who}',
  anotherAccount: 'another account',
  // The pages a password email's link opens.
  confirmAddress: 'Confirm your email address',
  confirmMyAddress: 'Confirm my address',
  chooseNewPassword: 'Choose a new password',
  newPassword: 'New password',
  saveNewPassword: 'Save the new password',
  // The notices the sign-in page shows (`?notice=`), as a polite status message.
  noticeEmailVerified: 'Your email address is confirmed. You can sign in now.',
  noticePasswordReset: 'Your password was changed. Sign in with the new one.',
  noticePasskeysRemoved: 'Your email address is confirmed. The passkeys registered for it before were removed.',
  noticeConfirmationSent: 'Check your email: we sent that address a message with the next step.',
  noticeResetLinkSent: 'If an account uses that address, we sent it a link to choose a new password.',
  // The password's links on the sign-in page, and its sign-up and forgot-password pages; a passkey that failed there.
  forgotPassword: 'Forgot your password?',
  createAccount: 'Create an account',
  passkeyFailed: 'The passkey could not be used. Try again, or sign in another way.',
  nameOptional: 'Name (optional)',
  createTheAccount: 'Create the account',
  backToSignIn: 'Back to sign-in',
  resetPassword: 'Reset your password',
  resetPasswordLead: "Enter your account's email address: we will send it a link to choose a new password.",
  sendResetLink: 'Send the link',
  // The password emails, in the language of the request that sends them; {name} is the app's
  // (theme.name, else the origin's host), {host} the origin's host.
  verifySubject: 'Confirm your email address for {name}',
  verifyLead: 'Confirm this address to finish creating your account on {name}.',
  verifyAfter: 'If you did not create an account, ignore this email: nothing happens without the confirmation.',
  existsSubject: 'You already have an account on {name}',
  existsLead: 'Someone tried to create an account on {name} with this address, which already has one. If it was you, sign in, or reset your password:',
  resetMyPassword: 'Reset my password',
  existsAfter: 'If it was not you, you can ignore this email: nothing was changed.',
  resetSubject: 'Reset your password for {name}',
  resetLead: 'Choose a new password for your account on {name}.',
  resetAfter: 'If you did not ask for this, ignore this email: your password stays as it is.',
  changedSubject: 'Your password for {name} was changed',
  changedLead: 'The password of your account on {name} was just changed.',
  changedAfter: 'If this was not you, reset your password now and review your devices.',
  // {duration}: "15 minutes" in the language's words; {codeMinutes} a number. Then the code,
  // in a box, follows orEnterCode and emailCode.
  orEnterCode: 'Or enter this code where you asked:',
  linkWorksFor: 'The link works for {duration}.',
  linkAndCodeWorkFor: 'The link works for {duration}, the code for {codeMinutes} minutes.',
  // The sign-in email (link and code), in the language of the request that asks for it; its
  // button says signIn, its last line emailIgnore.
  emailSubject: 'Sign in to {name}',
  emailLead: 'Use the link below to sign in to {name}.',
  emailCode: 'Or enter this code where you typed your address:',
  emailIgnore: 'If you did not ask for this email, you can ignore it.',
}
