/**
 * What the account settings elements add, in English (`<latchkey-profile>` and its sections,
 * `<latchkey-identity>`, `<latchkey-password>`, `<latchkey-passkeys>`): the catalogue every other
 * language's `profile.ts` matches key for key. Loaded only where one of those elements is shown.
 */
export default {
  // <latchkey-profile>: each section's heading and what it is for
  profileHeading: 'Profile',
  passwordHeading: 'Password',
  passkeysHeading: 'Passkeys',
  sessionsHeading: 'Devices',
  accountsHeading: 'Connected accounts',
  passkeysAbout: 'Sign in with your fingerprint, face or screen lock instead of a password.',
  mfaAbout: 'After you sign in, also enter a code from an authenticator app.',
  sessionsAbout: 'Where your account is signed in. End any session you do not recognise.',
  accountsAbout: 'Other accounts you can sign in with.',

  // <latchkey-identity>
  nameLabel: 'Name',
  noName: 'Not given',
  // <latchkey-identity> with the identity plugin: the name, the image and the address changed
  imageLabel: 'Image URL',
  nameSaved: 'Your name is saved.',
  imageSaved: 'Your image is saved.',
  nameInvalid: 'Use at most 100 characters, without line breaks.',
  imageInvalid: 'Use an address that starts with https://, of at most 2,048 characters.',
  changeEmail: 'Change email',
  newEmail: 'New email address',
  sendEmailLink: 'Send a confirmation link',
  emailLinkSent: 'Check your inbox: we sent a link to {email}. Open it in this browser, signed in as you are now, to use the new address. If nothing arrives, that address may belong to another account.',
  emailInvalid: 'Enter an email address like name@example.com.',
  sameEmail: 'That is your email address already.',
  whyChangeEmail: 'change your email address',

  // <latchkey-password>
  passwordIsSet: 'You can sign in with your email and password.',
  noPassword: 'You sign in without a password. Set one to sign in with your email and a password too.',
  setPassword: 'Set a password',
  currentPassword: 'Current password',
  savePassword: 'Save password',
  passwordSaved: 'Your password is saved. Your other devices were signed out.',
  wrongCurrentPassword: 'The current password is not right.',
  // What needs a recent sign-in, as "Confirm it's you to {why}: sign in again." fills it in.
  whyChangePassword: 'change your password',
  whySetPassword: 'set a password',

  // <latchkey-passkeys>
  addPasskey: 'Add a passkey',
  noPasskeys: 'No passkeys yet.',
  rename: 'Rename',
  renameName: 'Rename {name}',
  passkeyNameLabel: 'Passkey name',
  save: 'Save',
  removeAsk: 'Remove “{name}”? You will no longer sign in with it.',
  removePasskey: 'Remove passkey',
  // A passkey without a name of its own, by what it is.
  syncedPasskey: 'Synced passkey',
  securityKey: 'Security key',
  devicePasskey: 'Passkey on one device',
  passkeyAdded: 'Passkey added: next time, sign in with it.',
  passkeyRenamed: 'Passkey renamed.',
  passkeyRemoved: 'Passkey removed.',
  passkeyNotAdded: 'No passkey was added.',
  noPasskeysHere: 'This browser cannot make passkeys. Add one from another browser or device.',
  whyAddPasskey: 'add a passkey',
  whyRemovePasskey: 'remove the passkey “{name}”',
  actionFailed: 'That did not work. Please try again.',
}
