import { h, link, note, ol, p, ul, type LangContent } from './types.ts';

export const en: LangContent = {
  categories: {
    18: { title: "Beginner's guide", summary: 'Open an account, learn the basics and discover copy trading and referrals.' },
    21: { title: 'Deposits and withdrawals', summary: 'Fund your account, withdraw to your own wallet and move money between wallets.' },
    22: { title: 'Trading guide', summary: 'Futures rules, order types, fees and the API.' },
    16: { title: 'Compensation FAQ', summary: 'How the risk fund, compensation orders and vouchers protect your trading.' },
    20: { title: 'Account and security', summary: 'Identity verification, passwords, Google Authenticator and login history.' },
    19: { title: 'FAQ', summary: 'Answers to the questions traders ask most, and how to reach us.' },
    23: { title: 'Announcements', summary: 'Platform news, new features and maintenance notices.' },
    24: { title: 'Legal and policies', summary: 'Agreements, policies and risk disclosures that govern the use of the platform.' },
    25: { title: 'About', summary: 'Who we are and what we stand for.' },
  },
  articles: {
    103: {
      title: 'Getting started in five steps',
      summary: 'From sign-up to your first trade.',
      blocks: [
        p('Welcome! These five steps take you from a new account to your first position.'),
        ol(
          'Register with your email address and a password of 6 to 16 characters. If a friend invited you, enter their referral code.',
          'Secure your account: bind Google Authenticator under Account security.',
          'Complete identity verification so that every service is available to you.',
          'Deposit crypto to your fund wallet, then transfer it to the futures wallet you want to trade with.',
          'Open the trade screen, choose a pair, set your leverage and place a limit or market order.',
        ),
        note('Start with low leverage and small sizes until you are comfortable with how margin and liquidation work.'),
        link('Go to the deposit page', '/my/wallet/deposit'),
      ],
    },
    85: {
      title: 'Copy trading guide',
      summary: 'Follow experienced traders and mirror their positions automatically.',
      blocks: [
        p('Copy trading lets you follow a lead trader: every position they open, add to, reduce or close is mirrored in your copy wallet in proportion to the amount you allocate, at the same price and with normal trading fees.'),
        h('How to start'),
        ol(
          'Open Copy trading and compare lead traders by return, profit, win rate and followers over 7, 30 or 90 days.',
          'Choose an amount to move into your copy wallet and your rules: a fixed amount or a ratio per order, a maximum per order and a loss at which copying stops.',
          'Confirm. Copied positions appear under your copy positions as soon as the lead trader trades.',
        ),
        p('If your copy wallet does not have enough margin for an order, that order is skipped and you are told why. When you stop following, you choose whether to close the copied positions or keep them.'),
        note("A trader's past results do not guarantee future returns. Only allocate money you can afford to lose."),
        link('Open copy trading', '/copy'),
      ],
    },
    86: {
      title: 'Referral programme',
      summary: 'Invite friends and earn a share of their trading fees.',
      blocks: [
        p('Every account has a personal invitation code and link. When someone registers with your code, the two accounts are linked permanently, and a share of every trading fee your invitee pays is credited to you as a rebate.'),
        ul(
          'Find your code, link and QR code on the Referral page, and copy or share them.',
          'Rebates are paid in USDT at the rebate rate shown on the Referral page, at the moment the fee is charged.',
          "The page shows your total earnings, yesterday's earnings (UTC day) and the people you invited.",
        ),
        note('A referral code can only be entered when the account is created; it cannot be added or changed later.'),
        link('Open the referral page', '/my/rebate'),
      ],
    },
    104: {
      title: 'How to deposit',
      summary: 'Send crypto to your personal deposit address.',
      blocks: [
        ol(
          'Go to Assets and choose Deposit.',
          'Select the coin and the network. The network must be the same one you send from.',
          'Copy your deposit address or scan its QR code from your other wallet, then send the funds.',
          'The deposit appears as confirming and is credited to your fund wallet once the network has confirmed it the required number of times.',
        ),
        note('Each coin and network has a minimum deposit. A smaller deposit is recorded but not credited. Sending a coin over the wrong network may cause a permanent loss.'),
        p('Your deposit history is under Orders › Wallet history, with its status and confirmations.'),
        link('Deposit now', '/my/wallet/deposit'),
      ],
    },
    105: {
      title: 'How to withdraw',
      summary: 'Send funds from your fund wallet to an external address.',
      blocks: [
        ol(
          'Go to Assets and choose Withdraw.',
          'Select the coin and network, paste the destination address and enter the amount.',
          'Check the network fee and the amount that will arrive, then confirm with your email code or Google Authenticator code.',
        ),
        p('The amount plus the network fee is held from your fund wallet while the withdrawal is reviewed. A pending withdrawal can still be cancelled, which releases the hold.'),
        ul(
          'Each coin has a minimum withdrawal amount.',
          'Withdrawals are disabled for 24 hours after a password change and for 48 hours after a password reset, to protect you if someone else changed it.',
        ),
        link('Withdraw now', '/my/wallet/withdrawal'),
      ],
    },
    106: {
      title: 'Transfers between wallets and instant convert',
      summary: 'Move funds between your fund, spot, futures and copy wallets, or swap coins.',
      blocks: [
        p('Your account has several wallets: fund (deposits and withdrawals), spot, standard futures, USDT-M futures and copy. A transfer between your own wallets is instant and free.'),
        p('Instant convert swaps one coin for another at a quoted rate with no fee and no slippage. The quote is held for 8 seconds; if it expires, request a new one.'),
        link('Open convert', '/convert'),
      ],
    },
    12: {
      title: 'Futures trading rules',
      summary: 'Margin, leverage, liquidation and funding for standard and USDT-M futures.',
      blocks: [
        p('Futures let you go long or short with leverage. Your margin is the notional value divided by the leverage. Each contract has a minimum and maximum order quantity, a leverage range and a maintenance margin ratio; they are shown in the trading rules panel of the trade screen.'),
        h('Liquidation'),
        p('When the equity of a position falls to its maintenance margin, the position is liquidated at the mark price. You can lose at most the margin of that position. Leverage above 10x shows a liquidation risk warning before you confirm.'),
        h('Funding and overnight fees'),
        ul(
          'USDT-M perpetual futures settle funding every 8 hours at 00:00, 08:00 and 16:00 UTC. Longs pay shorts when the rate is positive and shorts pay longs when it is negative.',
          'Standard futures charge an overnight fee at 00:00 UTC to positions held over the day boundary.',
        ),
      ],
    },
    82: {
      title: 'Fees',
      summary: 'Trading, funding, convert and withdrawal fees.',
      blocks: [
        ul(
          'Taker (an order that trades at once): 0.05 % of the notional value when opening and when closing.',
          'Maker (an order that rested in the book before it was filled): 0.02 % of the notional value.',
          'Funding (USDT-M) and overnight fees (standard futures) as described in the futures rules.',
          'Instant convert: no fee.',
          'Deposits: free. Withdrawals: a network fee per coin and network, shown before you confirm.',
          'Transfers between your own wallets: free.',
        ),
        p('Fees are rounded up to the smallest unit of the coin. Every fee appears in your transaction history.'),
      ],
    },
    107: {
      title: 'Order types explained',
      summary: 'Limit, market, take-profit, stop-loss and stop orders.',
      blocks: [
        ul(
          'Limit order: trades at your price or better. If it cannot trade at once it waits in the book.',
          'Market order: trades at once at the best available price.',
          'Take-profit and stop-loss: close a position when the price reaches your target or your limit.',
          'Stop order: waits until the last or mark price reaches its trigger, then acts as a market or limit order.',
        ),
        p('Options such as reduce-only, post-only and time in force (GTC, IOC, FOK) control how an order may trade. A limit order needs a price.'),
      ],
    },
    83: {
      title: 'API',
      summary: 'Automate your trading with the REST and WebSocket API.',
      blocks: [
        p('The platform offers a REST API under /api and two WebSockets: a public market stream (order book, trades, tickers and candles) and a private user stream (orders, positions and balances).'),
        p('Every REST response is an envelope with a numeric code, a message and data. Authenticated calls carry your session token in the Authorization header.'),
        note('Never share your token. Anyone who has it can trade on your account until you log out.'),
      ],
    },
    58: {
      title: 'The risk fund',
      summary: 'A 100 million USD fund that backs risk-free trading.',
      blocks: [
        p('The platform keeps a risk fund of 100 million USD. It pays the compensation orders that cover part of traders’ realised futures losses, and it absorbs the remaining margin of liquidated positions.'),
        p('Compensation is paid from the fund day by day into your account; nothing is paid from other traders’ balances.'),
        link('See compensation rules', '/help-detail/75'),
      ],
    },
    75: {
      title: 'Compensation rules',
      summary: 'How a net realised loss becomes a compensation order.',
      blocks: [
        p('When your net realised futures result (PnL, fees and funding) since your last compensation order is a loss of at least 1 USDT, a compensation order worth 50 % of that loss is created. A later profit is netted against later losses, and no loss is covered twice.'),
        ol(
          'Claim the order on the Compensation page; you can apply a loss-protection voucher to raise its amount.',
          'The first payout arrives 24 hours after the claim; the amount is then paid daily over 30 days.',
          'A speed voucher shortens the remaining days.',
          'When everything has been paid, withdraw the order to your fund wallet.',
        ),
        link('Open my compensation orders', '/my/compensation/orders'),
      ],
    },
    80: {
      title: 'Loss-protection vouchers',
      summary: 'Raise the amount of a compensation order.',
      blocks: [
        p('A loss-protection voucher has a value in USDT. When you claim a compensation order you may apply one, and its value is added to the amount the order pays.'),
        ul(
          'Usable vouchers are listed under Coupons; some expire, others are valid permanently.',
          'Several vouchers of the same kind can be merged into one.',
          'A voucher can be used once. Used, merged and expired vouchers stay in your history.',
        ),
        link('See my coupons', '/my/coupon'),
      ],
    },
    81: {
      title: 'Speed vouchers',
      summary: 'Receive your compensation sooner.',
      blocks: [
        p('A speed voucher cuts the remaining payout days of a running compensation order by its percentage, for example 50 %. The amount owed does not change; it is simply paid faster.'),
        p('Apply it with Boost on an active or paying order. A boost never makes a schedule longer.'),
      ],
    },
    108: {
      title: 'Identity verification',
      summary: 'Verify your identity to use every service.',
      blocks: [
        p('Identity verification protects your account and is needed for full services. Go to Account › Identity verification and provide:'),
        ul(
          'your country or region and document type (ID card, passport, driver license or other);',
          'your first name, last name and document number;',
          'a photo of the document cover and of the information page (jpg or png, at most 8MB each).',
        ),
        p('Your submission is reviewed, usually within one working day. If it is rejected you will see the reason and can submit again.'),
        link('Verify my identity', '/my/settings/kyc'),
      ],
    },
    109: {
      title: 'Password, Google Authenticator and login history',
      summary: 'Keep your account secure.',
      blocks: [
        ul(
          'Change your password under Account security. Withdrawals are paused for 24 hours afterwards.',
          'Bind Google Authenticator: scan the QR code with the app and enter the 6-digit code. It then protects logins and withdrawals.',
          'Check the login history for sign-ins you do not recognise. If you see one, change your password at once.',
        ),
        link('Open account security', '/my/settings/security'),
      ],
    },
    53: {
      title: 'Contact us',
      summary: 'How to reach our support team.',
      blocks: [
        p('Our support team answers around the clock in English, Chinese, Japanese and Korean.'),
        ul(
          'Email: support@riskfree.example. Please write from the email address of your account.',
          'In the help centre, use "Report a problem" to send us a diagnostic file of what happened on your screen.',
        ),
        note('We will never ask for your password, your verification codes or your Google Authenticator secret.'),
      ],
    },
    84: {
      title: 'Listing application',
      summary: 'How projects can apply to list a contract.',
      blocks: [
        p('Projects may apply to list a futures contract. We review liquidity on other markets, the team, security audits, community and compliance with applicable laws.'),
        p('Send your application to listing@riskfree.example with the project name, website, token contracts and a short description. We reply to every complete application; a listing is never guaranteed and we never charge a fee for a review.'),
      ],
    },
    110: {
      title: "Why can't I withdraw right now?",
      summary: 'The most common reasons a withdrawal is blocked.',
      blocks: [
        ul(
          'You changed your password in the last 24 hours, or reset it in the last 48 hours.',
          'The amount plus the network fee is more than the available balance of your fund wallet: transfer funds from another wallet first.',
          'The amount is below the minimum withdrawal amount of the coin.',
          'The address is missing or not valid for the selected network.',
        ),
        p('The withdrawal page tells you which one applies and, for a lock, when it ends.'),
      ],
    },
    101: {
      title: 'Welcome to RiskFree trading',
      summary: 'What the platform offers today.',
      blocks: [
        p('Trade standard and USDT-M futures, convert coins instantly with no fee, follow lead traders and earn referral rebates, all in one account, in five languages and in light and dark themes.'),
        p('Our risk-free programme turns part of a realised loss into compensation paid from the 100 million USD risk fund.'),
        link("Read the beginner's guide", '/help-list/18'),
      ],
    },
    102: {
      title: 'Maintenance notices',
      summary: 'How we announce and run maintenance.',
      blocks: [
        p('Planned maintenance is announced here at least 24 hours ahead. During maintenance, open orders stay in place and positions remain protected by their liquidation rules.'),
        p('If the market stream disconnects, the app reconnects by itself and refreshes the order book.'),
      ],
    },
    11: {
      title: 'User agreement',
      summary: 'The agreement between you and the platform.',
      blocks: [
        p('By registering you agree to use the platform only for lawful purposes, to keep your credentials secret and to provide accurate information during identity verification.'),
        p('You are responsible for every order placed with your account. We may suspend an account that breaks this agreement, the law or the rules of fair trading, and will tell you why unless the law forbids it.'),
        p('We may update this agreement. Material changes are announced before they take effect.'),
      ],
    },
    16: {
      title: 'Terms of use',
      summary: 'The rules for using the website and apps.',
      blocks: [
        p('These terms govern your use of the website and apps. You must be of legal age in your country and must not use the platform where trading digital assets is prohibited.'),
        ul(
          'Do not attempt to disrupt, overload or reverse-engineer the service.',
          'Do not use automated tools in a way that harms other users.',
          'Content and trademarks belong to the platform and may not be copied without permission.',
        ),
        p('The service is provided as it is available. Fees and rules are published in the help centre.'),
      ],
    },
    17: {
      title: 'Privacy policy',
      summary: 'What personal data we collect and how we protect it.',
      blocks: [
        p('We collect the data needed to run your account: email address, identity documents, login records (time, client, IP address) and your transactions.'),
        p('We use it to provide the service, keep your account safe and meet legal obligations. We do not sell personal data. Passwords are stored only as salted hashes, and verification codes and secrets are never written to logs.'),
        p('You may ask for a copy of your data or for its correction by contacting support.'),
      ],
    },
    8: {
      title: 'Risk disclosure',
      summary: 'Trading digital asset futures involves substantial risk.',
      blocks: [
        p('Prices of digital assets are highly volatile. Leverage multiplies gains and losses, and a position can be liquidated quickly, losing its whole margin.'),
        ul(
          'Past performance, including that of lead traders, does not predict future results.',
          'Compensation reduces but does not remove losses and is subject to its rules.',
          'Network congestion, outages or market gaps may prevent orders from executing at the expected price.',
        ),
        p('Trade only with money you can afford to lose, and seek independent advice if you are unsure.'),
      ],
    },
    9: {
      title: 'Anti-money laundering policy',
      summary: 'How we prevent money laundering and terrorist financing.',
      blocks: [
        p('We verify the identity of our users, monitor transactions for unusual patterns and keep records as required by law.'),
        p('We may ask for additional documents, delay or refuse a transaction, or freeze an account when we suspect money laundering, and we report suspicious activity to the competent authorities.'),
      ],
    },
    13: {
      title: 'Cookie policy',
      summary: 'How the site uses local storage.',
      blocks: [
        p('The site stores only what it needs on your device: your session token, language, theme, chart colour settings and the last pair you traded.'),
        p('We do not use advertising cookies. Clearing your browser storage logs you out and restores the default settings.'),
      ],
    },
    14: {
      title: 'Law enforcement requests',
      summary: 'How authorities can request information.',
      blocks: [
        p('We answer requests from law enforcement agencies that are made through official channels and comply with applicable law.'),
        p('Send requests from an official email address to legal@riskfree.example, with the legal basis, the account concerned and a contact person. Emergency requests involving a risk to life are handled with priority.'),
      ],
    },
    10: {
      title: 'Disclaimer',
      summary: 'Limits of our responsibility.',
      blocks: [
        p('Information in the help centre, the market pages and announcements is provided for general information only and is not investment advice.'),
        p('We are not liable for losses caused by market movements, your own trading decisions, or events beyond our reasonable control, except where the law does not allow such a limitation.'),
      ],
    },
    15: {
      title: 'About us',
      summary: 'Twenty years of experience, more than 100,000 traders.',
      blocks: [
        p('RiskFree is a trading platform for futures, instant convert and copy trading, built by a team with 20 years of experience in financial markets and trusted by more than 100,000 traders.'),
        p('Our idea is simple: trading should come with a safety net. A 100 million USD risk fund backs our compensation programme, and our instant convert has no fees and no slippage.'),
        link('Contact us', '/help-detail/53'),
      ],
    },
  },
};
