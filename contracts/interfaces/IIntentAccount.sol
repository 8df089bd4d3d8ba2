// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {Intent, Recovery} from "./IntentTypes.sol";

/// @title A one-shot account whose address commits to one intent.
/// @notice A clone of one implementation whose only immutable argument is the intent hash.
interface IIntentAccount {
    /// @notice Lifecycle of the account. Set before any external call.
    enum State {
        None,
        Executed,
        Cancelled
    }

    /// @notice The intent data does not hash to the account's committed hash.
    error HashMismatch(bytes32 expected, bytes32 actual);
    /// @notice Executed on a chain other than the committed one.
    error WrongChain(uint256 expected, uint256 actual);
    /// @notice Executed at or after the deadline.
    error Expired(uint256 deadline, uint256 nowTimestamp);
    /// @notice The account is not in the state the operation needs.
    error InvalidState(State expected, State actual);
    /// @notice The caller is not the committed executor.
    error UnauthorizedExecutor(address expected, address actual);
    /// @notice Less than the committed deposit is present.
    error InsufficientDeposit(uint256 required, uint256 actual);
    /// @notice Destination mode: less gas left than the committed minimum.
    error InsufficientGas(uint256 required, uint256 actual);
    /// @notice A committed call failed (origin mode, or inside the destination self-call).
    error CallFailed(uint256 index, bytes reason);
    /// @notice A call targets the account itself.
    error CallToSelf(uint256 index);
    /// @notice A fill writes outside the call data (or over the selector).
    error FillOutOfBounds(uint256 index, uint256 offset, uint256 dataLength);
    /// @notice A fill kind other than OwnBalance or OwnAddress.
    error InvalidFillKind(uint256 index);
    /// @notice An authData kind this account does not know, or one that does not fit the deposit token.
    error UnsupportedAuthKind(uint8 kind);
    /// @notice Refund before the deadline by someone other than the owner.
    error RefundNotAllowed(address owner, address caller, uint256 deadline, uint256 nowTimestamp);
    /// @notice An entry point reserved to the factory or to the account itself was called by another address.
    error UnauthorizedCaller(address expected, address actual);
    /// @notice Resetting an allowance granted by a call failed.
    error AllowanceResetFailed(address token, address spender);
    /// @notice The recovery signature is not the committed owner's over this recovery.
    error InvalidRecoverySignature(address owner);
    /// @notice The recovery signature's deadline has passed.
    error RecoveryExpired(uint256 deadline, uint256 nowTimestamp);
    /// @notice This recovery nonce was used before: every signature recovers once.
    error RecoveryNonceUsed(uint256 nonce);
    /// @notice The deposit token cannot be recovered while the intent can still execute (unless it is cancelled).
    error DepositTokenLocked(address token);
    /// @notice A recovery names no recipient.
    error InvalidRecoveryRecipient();
    /// @notice The account holds none of the token (or its balance cannot be read).
    error NothingToRecover(address token);
    /// @notice The sender asked for more than the owner signed, or more than is recovered.
    error RecoveryFeeTooHigh(uint256 fee, uint256 maxFee, uint256 recovered);
    /// @notice Sending the recovered balance (or the fee) failed; nothing moved and the nonce stays unused.
    error RecoveryTransferFailed(address token, address to);

    /// @notice The committed calls ran (or, in destination mode, failed and were refunded).
    event Executed(bytes32 indexed intentHash, address indexed executor, bool callsSucceeded);
    /// @notice Destination mode: the calls failed and were rolled back; the balances go to the refund recipient.
    event DestinationFailed(bytes32 indexed intentHash, bytes reason);
    /// @notice A balance was sent to the refund recipient (token address(0) = native).
    event Refunded(address indexed token, uint256 amount, address indexed to);
    /// @notice Sending a balance to the refund recipient failed; it stays for a later refund.
    event RefundSkipped(address indexed token);
    /// @notice The owner cancelled the intent before its deadline.
    event Cancelled(bytes32 indexed intentHash);
    /// @notice Native currency arrived.
    event NativeReceived(address indexed from, uint256 amount);
    /// @notice The owner's signed recovery moved `amount` of `token` to `recipient` and `fee` to the sender.
    event Recovered(
        address indexed token, address indexed recipient, uint256 amount, address feeTo, uint256 fee, uint256 nonce
    );

    /// @notice Runs the committed intent once: pull the deposit (authData), check the amount, run the calls, sweep.
    /// @param intent The intent whose hash the account commits to.
    /// @param authData Gasless deposit authorization: empty or kind 0 = none, 1 = EIP-2612 permit, 2 = EIP-3009.
    function execute(Intent calldata intent, bytes calldata authData) external;

    /// @notice Sends the listed token balances (and native when asked) to the committed refund recipient.
    /// @dev Anyone may call once executed or cancelled, at or after the deadline, or on another chain;
    /// before that only the owner, which cancels the intent.
    /// @param intent The intent whose hash the account commits to.
    /// @param tokens ERC-20 tokens whose whole balances are refunded.
    /// @param native Whether to refund the native balance too.
    function refund(Intent calldata intent, address[] calldata tokens, bool native) external;

    /// @notice The factory's forward of `execute`, carrying the original caller for the executor check.
    /// @param caller The address that called the factory.
    /// @param intent The intent whose hash the account commits to.
    /// @param authData See `execute`.
    function executeFor(address caller, Intent calldata intent, bytes calldata authData) external;

    /// @notice The factory's forward of `refund`, carrying the original caller for the owner check.
    /// @param caller The address that called the factory.
    /// @param intent The intent whose hash the account commits to.
    /// @param tokens See `refund`.
    /// @param native See `refund`.
    function refundFor(address caller, Intent calldata intent, address[] calldata tokens, bool native) external;

    /// @notice Sends the account's whole balance of `recovery.token` to `recovery.recipient` under the committed
    /// owner's EIP-712 signature; anyone may submit it. The caller may keep `fee` (at most the signed `maxFee`, never
    /// more than the balance) for its gas. The deposit token stays while the intent can still execute, unless the
    /// signed recovery cancels the intent first.
    /// @param intent The intent whose hash the account commits to.
    /// @param recovery What the owner signed.
    /// @param fee The part of the balance the caller keeps.
    /// @param signature The owner's signature (65-byte ECDSA, or ERC-1271 for a contract owner).
    function recover(Intent calldata intent, Recovery calldata recovery, uint256 fee, bytes calldata signature)
        external;

    /// @notice The factory's forward of `recover`, carrying the original caller (who gets the fee).
    /// @param caller The address that called the factory.
    /// @param intent See `recover`.
    /// @param recovery See `recover`.
    /// @param fee See `recover`.
    /// @param signature See `recover`.
    function recoverFor(
        address caller,
        Intent calldata intent,
        Recovery calldata recovery,
        uint256 fee,
        bytes calldata signature
    ) external;

    /// @notice Whether a recovery nonce has been used on this account.
    /// @param nonce The nonce.
    /// @return True once a recovery with it went through.
    function recoveryNonceUsed(uint256 nonce) external view returns (bool);

    /// @notice The EIP-712 hash the owner signs for `recovery` on this account and chain.
    /// @param recovery The recovery.
    /// @return The digest.
    function recoveryDigest(Recovery calldata recovery) external view returns (bytes32);

    /// @notice The hash this account commits to (its immutable clone argument).
    /// @return The intent hash.
    function intentHash() external view returns (bytes32);

    /// @notice The account's lifecycle state.
    /// @return The state.
    function state() external view returns (State);

    /// @notice The factory that created the implementation; part of every intent hash.
    /// @return The factory address.
    function factory() external view returns (address);
}
