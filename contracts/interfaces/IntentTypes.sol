// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @notice How an intent account treats a failing call.
/// Origin: any failure reverts the whole execution (the deposit stays and remains refundable).
/// Destination: the calls run in a self-call; a failure rolls them back and refunds the balances.
enum Mode {
    Origin,
    Destination
}

/// @notice What a run-time fill writes into a call's calldata. Nothing else can be filled.
enum FillKind {
    None,
    /// The account's own balance of `token` (address(0) = native), read just before the call.
    OwnBalance,
    /// The account's own address.
    OwnAddress
}

/// @notice A 32-byte word written into a call's calldata at run time, at a committed byte offset.
struct Fill {
    FillKind kind;
    address token;
    uint32 offset;
}

/// @notice One committed call made by an intent account.
struct Call {
    address target;
    uint256 value;
    bytes data;
    Fill[] fills;
}

/// @notice Everything an intent account commits to. Its hash is the account's only immutable argument.
struct Intent {
    Mode mode;
    uint256 chainId;
    address owner;
    address refundRecipient;
    /// address(0) = anyone may execute.
    address executor;
    uint256 deadline;
    bytes32 salt;
    /// address(0) = native currency.
    address depositToken;
    uint256 depositAmount;
    /// Destination mode: gas that must be left before the calls run, so nobody can force the failure path.
    uint256 minGas;
    Call[] calls;
    address[] sweepTokens;
}

/// @notice An owner-signed recovery (EIP-712, domain "Switchyard IntentAccount" v1 of the account on this chain):
/// the account's whole balance of `token` goes to `recipient`, less the fee its sender may keep.
/// @dev The signature is bound to one account (verifyingContract) on one chain (chainId) and used once (nonce).
struct Recovery {
    /// address(0) = native currency.
    address token;
    /// Any address the owner chooses; never address(0).
    address recipient;
    /// Cancels the intent first, so its deposit token can be recovered before the deadline (as an owner refund).
    bool cancelIntent;
    /// The most of the recovered amount the transaction's sender may keep for its gas, in `token`.
    uint256 maxFee;
    /// Any unused number: each signature is good for one recovery.
    uint256 nonce;
    /// The signature is void from this block timestamp on.
    uint256 deadline;
}

/// @notice The lock → fill → settle order. All fields are static, so each one sits at a fixed calldata word.
/// @dev `open(OrderData)` calldata: word i of the struct starts at byte 4 + 32 * i (inputAmount at byte 100).
struct OrderData {
    address depositor;
    address refundRecipient;
    address inputToken;
    uint256 inputAmount;
    uint256 destChainId;
    address destSettler;
    address outputToken;
    uint256 outputAmount;
    address recipient;
    uint256 fillDeadline;
    bytes32 nonce;
}

/// @notice One order to settle in `OriginSettler.settleBatch`: the arguments of `settle`.
struct Settlement {
    OrderData orderData;
    address repaymentAddr;
    bytes proof;
}
