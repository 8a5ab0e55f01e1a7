/**
 * What the account settings elements add, in English (`<latchkey-profile>` and its sections,
 * `<latchkey-identity>`, `<latchkey-password>`, `<latchkey-passkeys>`, `<latchkey-mfa>`,
 * `<latchkey-sessions>`, `<latchkey-accounts>`): the catalogue every other language's
 * `profile.ts` matches key for key. Loaded only where one of those elements is shown.
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

  // What every settings element asks when an action needs a recent sign-in, one way: "Confirm
  // it's you to {why}: sign in again." (freshNeeded), `why` what the action does.
  freshNeeded: "Confirm it's you to {why}: sign in again.",
  whyThis: 'do this',
  whyEndSession: 'end that session',
  whyEndOthers: 'end your other sessions',
  whyUnlink: 'unlink {name}',
  whyConnect: 'connect {name}',
  whySetUpApp: 'set up an authenticator app',
  whyRemoveApp: 'remove an authenticator app',
  whyRenewCodes: 'make new recovery codes',

  // <latchkey-sessions>
  signOutHere: 'Sign out here',
  end: 'End',
  thisDevice: '{device} (this device)',
  sessionTimes: 'signed in {created}, last seen {seen}',
  unknownTime: 'unknown',
  endOthers: 'End all other sessions',

  // <latchkey-accounts>
  unlink: 'Unlink',
  unlinkName: 'Unlink {name}',
  connect: 'Connect {name}',

  // <latchkey-mfa>
  setUpApp: 'Set up an authenticator app',
  newRecoveryCodes: 'New recovery codes',
  scanQr: 'Scan the QR code with your authenticator app, or type the key into it, then enter the code it shows.',
  qrAlt: 'QR code for your authenticator app',
  key: 'Key:',
  openInApp: 'Open in an authenticator app',
  cancel: 'Cancel',
  remove: 'Remove',
  removeName: 'Remove {name}',
  removeIntro: 'To remove {name}, enter a code from it, or a recovery code.',
  renewIntro: 'To make new recovery codes, enter a code from your authenticator app, or a recovery code.',
  recoveryFile: 'Recovery codes for {host}. Each one signs you in once, in place of a code from your authenticator app.',
  copied: 'Copied.',
  copyFailed: 'Could not copy here: download them, or select and copy them.',
  copy: 'Copy',
  recoveryCodes: 'Recovery codes',
  recoveryIntro: 'Your recovery codes. Each one signs you in once if you lose your authenticator app. Keep them somewhere safe: they are shown only now, and any older ones no longer work.',
  download: 'Download',
  done: 'Done',
  forget: 'Forget',
  forgetName: 'Forget {name}',
  trustedUntil: 'trusted until {date}',
  trustedDevices: 'Trusted devices',
  trustedIntro: 'These devices skip the second step when you sign in:',
  added: 'added {date}',
  codesLeft: { one: 'Recovery codes left: {count}', other: 'Recovery codes left: {count}' },
  authenticatorApp: 'Authenticator app',
  authenticatorAppNamed: 'Authenticator app ({label})',
}
