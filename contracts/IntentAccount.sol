// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/IERC20Permit.sol";
import {IERC3009} from "@openzeppelin/contracts/interfaces/draft-IERC3009.sol";
import {ReentrancyGuardTransient} from "@openzeppelin/contracts/utils/ReentrancyGuardTransient.sol";
import {EIP712} from "@openzeppelin/contracts/utils/cryptography/EIP712.sol";
import {SignatureChecker} from "@openzeppelin/contracts/utils/cryptography/SignatureChecker.sol";
import {IIntentAccount} from "./interfaces/IIntentAccount.sol";
import {Call, Fill, FillKind, Intent, Mode, Recovery} from "./interfaces/IntentTypes.sol";
import {IntentHash} from "./libraries/IntentHash.sol";
import {TokenOps} from "./libraries/TokenOps.sol";

/// @title IntentAccount: a one-shot account whose address commits to one intent.
/// @notice Deployed as an OpenZeppelin clone with immutable args (the intent hash) by IntentFactory.
/// It has no admin, no initializer, no delegatecall and no arbitrary-call entry point: it can only run
/// the calls its intent commits to, send its balances to the committed refund recipient, or send one token's
/// balance where the committed owner's signature says (recover).
contract IntentAccount is IIntentAccount, ReentrancyGuardTransient, EIP712 {
    using SafeERC20 for IERC20;

    /// @notice authData kinds (first ABI word of authData).
    uint8 internal constant AUTH_NONE = 0;
    uint8 internal constant AUTH_PERMIT = 1;
    uint8 internal constant AUTH_RECEIVE_WITH_AUTHORIZATION = 2;
    /// @notice Revert data kept from a failing call: enough for an error selector and a short message.
    uint256 internal constant MAX_REASON_BYTES = 256;
    /// @notice `approve(address,uint256)`: allowances a call grants are cleared after the calls.
    bytes4 internal constant APPROVE_SELECTOR = 0x095ea7b3;
    /// @notice Calldata bytes of `approve(spender, amount)`.
    uint256 internal constant APPROVE_CALLDATA_LENGTH = 68;
    /// @notice Byte length of a function selector: fills may not overwrite it.
    uint256 internal constant SELECTOR_LENGTH = 4;
    /// @notice OZ clone-with-immutable-args layout: the args start after the 45-byte proxy code.
    uint256 internal constant CLONE_ARGS_OFFSET = 0x2d;
    /// @notice EIP-712 type of what the owner signs to recover a balance.
    bytes32 internal constant RECOVERY_TYPEHASH = keccak256(
        "Recovery(address token,address recipient,bool cancelIntent,uint256 maxFee,uint256 nonce,uint256 deadline)"
    );

    /// @inheritdoc IIntentAccount
    address public immutable factory;

    /// @inheritdoc IIntentAccount
    State public state;

    /// @inheritdoc IIntentAccount
    mapping(uint256 nonce => bool used) public recoveryNonceUsed;

    constructor() EIP712("Switchyard IntentAccount", "1") {
        factory = msg.sender;
    }

    /// @notice Accepts native currency (deposits, swap outputs, refunds) and records it for receipts.
    receive() external payable {
        emit NativeReceived(msg.sender, msg.value);
    }

    /// @inheritdoc IIntentAccount
    function execute(Intent calldata intent, bytes calldata authData) external nonReentrant {
        _execute(msg.sender, intent, authData);
    }

    /// @inheritdoc IIntentAccount
    function executeFor(address caller, Intent calldata intent, bytes calldata authData) external nonReentrant {
        if (msg.sender != factory) revert UnauthorizedCaller(factory, msg.sender);
        _execute(caller, intent, authData);
    }

    /// @inheritdoc IIntentAccount
    function refund(Intent calldata intent, address[] calldata tokens, bool native) external nonReentrant {
        _refund(msg.sender, intent, tokens, native);
    }

    /// @inheritdoc IIntentAccount
    function refundFor(address caller, Intent calldata intent, address[] calldata tokens, bool native)
        external
        nonReentrant
    {
        if (msg.sender != factory) revert UnauthorizedCaller(factory, msg.sender);
        _refund(caller, intent, tokens, native);
    }

    /// @inheritdoc IIntentAccount
    function recover(Intent calldata intent, Recovery calldata recovery, uint256 fee, bytes calldata signature)
        external
        nonReentrant
    {
        _recover(msg.sender, intent, recovery, fee, signature);
    }

    /// @inheritdoc IIntentAccount
    function recoverFor(
        address caller,
        Intent calldata intent,
        Recovery calldata recovery,
        uint256 fee,
        bytes calldata signature
    ) external nonReentrant {
        if (msg.sender != factory) revert UnauthorizedCaller(factory, msg.sender);
        _recover(caller, intent, recovery, fee, signature);
    }

    /// @inheritdoc IIntentAccount
    function recoveryDigest(Recovery calldata recovery) public view returns (bytes32) {
        return _hashTypedDataV4(
            keccak256(
                abi.encode(
                    RECOVERY_TYPEHASH,
                    recovery.token,
                    recovery.recipient,
                    recovery.cancelIntent,
                    recovery.maxFee,
                    recovery.nonce,
                    recovery.deadline
                )
            )
        );
    }

    /// @notice Destination mode only: runs the calls inside a self-call so a failure can be rolled back.
    /// @dev Callable only by the account itself (calls to self are rejected, so only `_execute` reaches it).
    /// @param calls The committed calls.
    function runCallsAsSelf(Call[] calldata calls) external {
        if (msg.sender != address(this)) revert UnauthorizedCaller(address(this), msg.sender);
        _runCalls(calls);
    }

    /// @inheritdoc IIntentAccount
    function intentHash() public view returns (bytes32 hash) {
        assembly ("memory-safe") {
            extcodecopy(address(), 0x00, CLONE_ARGS_OFFSET, 0x20)
            hash := mload(0x00)
        }
    }

    function _execute(address caller, Intent calldata intent, bytes calldata authData) private {
        bytes32 hash = _checkHash(intent);
        if (block.chainid != intent.chainId) revert WrongChain(intent.chainId, block.chainid);
        if (block.timestamp >= intent.deadline) revert Expired(intent.deadline, block.timestamp);
        if (state != State.None) revert InvalidState(State.None, state);
        if (intent.executor != address(0) && caller != intent.executor) {
            revert UnauthorizedExecutor(intent.executor, caller);
        }
        state = State.Executed;

        _pullDeposit(intent, authData);
        _requireDepositAndReturnSurplus(intent);
        bool callsSucceeded = intent.mode == Mode.Origin ? _runOrigin(intent) : _runDestination(hash, intent);
        _sweep(intent);
        emit Executed(hash, caller, callsSucceeded);
    }

    function _refund(address caller, Intent calldata intent, address[] calldata tokens, bool native) private {
        bytes32 hash = _checkHash(intent);
        bool openToAnyone =
            state != State.None || block.timestamp >= intent.deadline || block.chainid != intent.chainId;
        if (!openToAnyone) {
            if (caller != intent.owner) {
                revert RefundNotAllowed(intent.owner, caller, intent.deadline, block.timestamp);
            }
            state = State.Cancelled;
            emit Cancelled(hash);
        }
        for (uint256 i = 0; i < tokens.length; i++) {
            _sendAll(tokens[i], intent.refundRecipient);
        }
        if (native) _sendAll(address(0), intent.refundRecipient);
    }

    /// @dev Checks the owner's signature and the nonce before anything moves; the deposit token only leaves an
    /// account that can no longer execute (the signed recovery may cancel it first, as the owner's refund does).
    function _recover(
        address caller,
        Intent calldata intent,
        Recovery calldata recovery,
        uint256 fee,
        bytes calldata signature
    ) private {
        bytes32 hash = _checkHash(intent);
        if (recovery.recipient == address(0)) revert InvalidRecoveryRecipient();
        if (block.timestamp >= recovery.deadline) revert RecoveryExpired(recovery.deadline, block.timestamp);
        if (recoveryNonceUsed[recovery.nonce]) revert RecoveryNonceUsed(recovery.nonce);
        if (!SignatureChecker.isValidSignatureNowCalldata(intent.owner, recoveryDigest(recovery), signature)) {
            revert InvalidRecoverySignature(intent.owner);
        }
        recoveryNonceUsed[recovery.nonce] = true;
        if (recovery.cancelIntent && state == State.None) {
            state = State.Cancelled;
            emit Cancelled(hash);
        }
        if (recovery.token == intent.depositToken && _canExecute(intent)) revert DepositTokenLocked(recovery.token);
        (bool ok, uint256 balance) = TokenOps.tryBalanceOf(recovery.token, address(this));
        if (!ok || balance == 0) revert NothingToRecover(recovery.token);
        if (fee > recovery.maxFee || fee > balance) revert RecoveryFeeTooHigh(fee, recovery.maxFee, balance);
        _sendOrRevert(recovery.token, recovery.recipient, balance - fee);
        if (fee > 0) _sendOrRevert(recovery.token, caller, fee);
        emit Recovered(recovery.token, recovery.recipient, balance - fee, caller, fee, recovery.nonce);
    }

    /// @dev Whether `execute` could still succeed here: never run or cancelled, on its chain, before its deadline.
    function _canExecute(Intent calldata intent) private view returns (bool) {
        return state == State.None && block.chainid == intent.chainId && block.timestamp < intent.deadline;
    }

    /// @dev A recovery moves all or nothing: a failing send reverts it, so the signature can be used again.
    function _sendOrRevert(address token, address to, uint256 amount) private {
        if (amount == 0) return;
        bool ok = token == address(0) ? TokenOps.trySendNative(to, amount) : TokenOps.tryTransfer(token, to, amount);
        if (!ok) revert RecoveryTransferFailed(token, to);
    }

    function _checkHash(Intent calldata intent) private view returns (bytes32 committed) {
        committed = intentHash();
        bytes32 actual = IntentHash.hashIntent(intent, factory);
        if (actual != committed) revert HashMismatch(committed, actual);
    }

    /// @dev Strict amount: at least depositAmount must be here; anything above it goes back at once.
    function _requireDepositAndReturnSurplus(Intent calldata intent) private {
        (, uint256 balance) = TokenOps.tryBalanceOf(intent.depositToken, address(this));
        if (balance < intent.depositAmount) revert InsufficientDeposit(intent.depositAmount, balance);
        if (balance > intent.depositAmount) {
            _send(intent.depositToken, intent.refundRecipient, balance - intent.depositAmount);
        }
    }

    function _runOrigin(Intent calldata intent) private returns (bool) {
        _runCalls(intent.calls);
        return true;
    }

    /// @dev The minGas check stops a caller from forcing the failure branch through the 63/64 rule.
    function _runDestination(bytes32 hash, Intent calldata intent) private returns (bool) {
        uint256 left = gasleft();
        if (left < intent.minGas) revert InsufficientGas(intent.minGas, left);
        try this.runCallsAsSelf(intent.calls) {
            return true;
        } catch (bytes memory reason) {
            emit DestinationFailed(hash, reason);
            return false;
        }
    }

    function _runCalls(Call[] calldata calls) private {
        // The spender each approve call actually approved: a fill may have written the spender word.
        address[] memory spenders = new address[](calls.length);
        for (uint256 i = 0; i < calls.length; i++) {
            Call calldata c = calls[i];
            if (c.target == address(this)) revert CallToSelf(i);
            bytes memory data = _applyFills(i, c);
            if (_isApprove(c.data)) spenders[i] = _spenderOf(data);
            (bool ok, bytes memory reason) = TokenOps.callCapped(c.target, c.value, data, MAX_REASON_BYTES);
            if (!ok) revert CallFailed(i, reason);
        }
        _clearApprovals(calls, spenders);
    }

    /// @dev Writes each fill's word into a memory copy of the committed calldata.
    function _applyFills(uint256 index, Call calldata c) private view returns (bytes memory data) {
        data = c.data;
        for (uint256 j = 0; j < c.fills.length; j++) {
            Fill calldata f = c.fills[j];
            uint256 offset = f.offset;
            if (offset < SELECTOR_LENGTH || offset + 32 > data.length) {
                revert FillOutOfBounds(index, offset, data.length);
            }
            uint256 word = _fillWord(index, f);
            assembly ("memory-safe") {
                mstore(add(add(data, 0x20), offset), word)
            }
        }
    }

    function _fillWord(uint256 index, Fill calldata f) private view returns (uint256) {
        if (f.kind == FillKind.OwnAddress) return uint256(uint160(address(this)));
        if (f.kind != FillKind.OwnBalance) revert InvalidFillKind(index);
        (bool ok, uint256 balance) = TokenOps.tryBalanceOf(f.token, address(this));
        if (!ok) revert InvalidFillKind(index);
        return balance;
    }

    /// @dev Every `approve(spender, …)` call is followed by `approve(spender, 0)`, so no allowance outlives execute.
    /// `spenders[i]` is the spender call i approved after fills (the selector and length cannot be filled).
    function _clearApprovals(Call[] calldata calls, address[] memory spenders) private {
        for (uint256 i = 0; i < calls.length; i++) {
            if (!_isApprove(calls[i].data)) continue;
            if (!TokenOps.tryClearApproval(calls[i].target, spenders[i])) {
                revert AllowanceResetFailed(calls[i].target, spenders[i]);
            }
        }
    }

    /// @dev The first argument word of `approve(spender, amount)` calldata held in memory.
    function _spenderOf(bytes memory approveData) private pure returns (address) {
        uint256 word;
        assembly ("memory-safe") {
            word := mload(add(approveData, 0x24))
        }
        return address(uint160(word));
    }

    function _isApprove(bytes calldata data) private pure returns (bool) {
        return data.length == APPROVE_CALLDATA_LENGTH && bytes4(data[:4]) == APPROVE_SELECTOR;
    }

    /// @dev Leftovers of the deposit token, the committed sweep tokens and native go to the refund recipient.
    function _sweep(Intent calldata intent) private {
        if (intent.depositToken != address(0)) _sendAll(intent.depositToken, intent.refundRecipient);
        for (uint256 i = 0; i < intent.sweepTokens.length; i++) {
            _sendAll(intent.sweepTokens[i], intent.refundRecipient);
        }
        _sendAll(address(0), intent.refundRecipient);
    }

    function _sendAll(address token, address to) private {
        (bool ok, uint256 balance) = TokenOps.tryBalanceOf(token, address(this));
        if (!ok) {
            emit RefundSkipped(token);
        } else if (balance > 0) {
            _send(token, to, balance);
        }
    }

    /// @dev Try-send: a failing token or recipient is skipped (the balance stays for a later refund).
    function _send(address token, address to, uint256 amount) private {
        bool ok = token == address(0) ? TokenOps.trySendNative(to, amount) : TokenOps.tryTransfer(token, to, amount);
        if (ok) emit Refunded(token, amount, to);
        else emit RefundSkipped(token);
    }

    /// @dev Gasless deposits. Both kinds are tried in try/catch (a front-run permit or authorization still
    /// leaves the tokens or the allowance in place); the strict-amount check decides afterwards.
    function _pullDeposit(Intent calldata intent, bytes calldata authData) private {
        if (authData.length == 0) return;
        uint8 kind = abi.decode(authData[:32], (uint8));
        if (kind == AUTH_NONE) return;
        if (intent.depositToken == address(0)) revert UnsupportedAuthKind(kind);
        if (kind == AUTH_PERMIT) _pullWithPermit(intent, authData);
        else if (kind == AUTH_RECEIVE_WITH_AUTHORIZATION) _pullWithAuthorization(intent, authData);
        else revert UnsupportedAuthKind(kind);
    }

    /// @dev authData = abi.encode(uint8(1), uint256 deadline, uint8 v, bytes32 r, bytes32 s);
    /// permit(owner, spender = this account, value = depositAmount).
    function _pullWithPermit(Intent calldata intent, bytes calldata authData) private {
        (, uint256 deadline, uint8 v, bytes32 r, bytes32 s) =
            abi.decode(authData, (uint8, uint256, uint8, bytes32, bytes32));
        address token = intent.depositToken;
        try IERC20Permit(token).permit(intent.owner, address(this), intent.depositAmount, deadline, v, r, s) {}
            catch {}
        if (IERC20(token).allowance(intent.owner, address(this)) >= intent.depositAmount) {
            IERC20(token).safeTransferFrom(intent.owner, address(this), intent.depositAmount);
        }
    }

    /// @dev authData = abi.encode(uint8(2), uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v,
    /// bytes32 r, bytes32 s); receiveWithAuthorization(from = owner, to = this account, value = depositAmount).
    function _pullWithAuthorization(Intent calldata intent, bytes calldata authData) private {
        (, uint256 validAfter, uint256 validBefore, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) =
            abi.decode(authData, (uint8, uint256, uint256, bytes32, uint8, bytes32, bytes32));
        try IERC3009(intent.depositToken).receiveWithAuthorization(
            intent.owner, address(this), intent.depositAmount, validAfter, validBefore, nonce, v, r, s
        ) {} catch {}
    }
}
