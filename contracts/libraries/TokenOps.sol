// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title Low-level token and call helpers that never copy more return data than they need.
/// @notice A hostile token or target cannot return-bomb the caller: at most 32 bytes (or a capped
/// revert reason) are copied, and failures are reported instead of bubbling.
library TokenOps {
    bytes4 private constant BALANCE_OF = 0x70a08231;
    bytes4 private constant TRANSFER = 0xa9059cbb;
    bytes4 private constant APPROVE = 0x095ea7b3;

    /// @notice Balance of `account` in `token` (address(0) = native); ok = false when the token call fails.
    /// @param token The token, or address(0) for native.
    /// @param account The holder.
    /// @return ok Whether the balance could be read.
    /// @return amount The balance.
    function tryBalanceOf(address token, address account) internal view returns (bool ok, uint256 amount) {
        if (token == address(0)) return (true, account.balance);
        assembly ("memory-safe") {
            let ptr := mload(0x40)
            mstore(ptr, BALANCE_OF)
            mstore(add(ptr, 0x04), account)
            ok := staticcall(gas(), token, ptr, 0x24, 0x00, 0x20)
            // Yul evaluates arguments right to left, so the size check must follow the call as its own step.
            ok := and(ok, gt(returndatasize(), 0x1f))
            amount := mload(0x00)
        }
        if (!ok) amount = 0;
    }

    /// @notice ERC-20 `transfer` that reports failure (revert, false, or no code) instead of reverting.
    /// @param token The token.
    /// @param to The recipient.
    /// @param amount The amount.
    /// @return ok Whether the transfer succeeded.
    function tryTransfer(address token, address to, uint256 amount) internal returns (bool ok) {
        return _tryTokenCall(token, abi.encodeWithSelector(TRANSFER, to, amount));
    }

    /// @notice ERC-20 `approve(spender, 0)` that reports failure instead of reverting.
    /// @param token The token.
    /// @param spender The spender whose allowance is cleared.
    /// @return ok Whether the approval succeeded.
    function tryClearApproval(address token, address spender) internal returns (bool ok) {
        return _tryTokenCall(token, abi.encodeWithSelector(APPROVE, spender, uint256(0)));
    }

    /// @notice Sends native currency with all gas, copying no return data.
    /// @param to The recipient.
    /// @param amount The amount in wei.
    /// @return ok Whether the send succeeded.
    function trySendNative(address to, uint256 amount) internal returns (bool ok) {
        assembly ("memory-safe") {
            ok := call(gas(), to, amount, 0, 0, 0, 0)
        }
    }

    /// @notice Calls `target`; on failure returns at most `maxReason` bytes of the revert data.
    /// @param target The callee.
    /// @param value Wei sent along.
    /// @param data The calldata.
    /// @param maxReason The most revert-data bytes to copy.
    /// @return ok Whether the call succeeded.
    /// @return reason The (truncated) revert data when it failed.
    function callCapped(address target, uint256 value, bytes memory data, uint256 maxReason)
        internal
        returns (bool ok, bytes memory reason)
    {
        assembly ("memory-safe") {
            ok := call(gas(), target, value, add(data, 0x20), mload(data), 0, 0)
        }
        if (ok) return (true, reason);
        uint256 size;
        assembly ("memory-safe") {
            size := returndatasize()
        }
        if (size > maxReason) size = maxReason;
        reason = new bytes(size);
        assembly ("memory-safe") {
            returndatacopy(add(reason, 0x20), 0, size)
        }
    }

    function _tryTokenCall(address token, bytes memory data) private returns (bool ok) {
        assembly ("memory-safe") {
            mstore(0x00, 0)
            ok := call(gas(), token, 0, add(data, 0x20), mload(data), 0x00, 0x20)
            // Accept "returns true" or "returns nothing" (USDT style), the latter only from a contract.
            switch returndatasize()
            case 0 { ok := and(ok, gt(extcodesize(token), 0)) }
            default { ok := and(ok, and(gt(returndatasize(), 0x1f), eq(mload(0x00), 1))) }
        }
    }
}
