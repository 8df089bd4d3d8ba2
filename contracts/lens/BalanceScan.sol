// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {TokenOps} from "../libraries/TokenOps.sol";

/// @title Many balances in one read, without a deployment.
/// @notice Never deployed: its creation code runs as an `eth_call` without a recipient, and what the constructor
/// returns (the code it would deploy) is the balance of every holder in every token. One request reads what
/// would take one per holder and token (src/contracts/balance-scan.ts).
contract BalanceScan {
    /// @param holders The addresses read.
    /// @param tokens The tokens read for each holder; address(0) is the native currency.
    /// @dev Returns abi.encode(uint256[] balances, uint256[] failed): the balance of holder h in token t at
    /// h * tokens.length + t, and that index's bit set in `failed` (256 a word) where the token's balanceOf did
    /// not answer. What a constructor returns is held to the code size limit (24,576 bytes, EIP-170): the caller
    /// keeps holders x tokens small enough.
    constructor(address[] memory holders, address[] memory tokens) {
        uint256 count = holders.length * tokens.length;
        uint256[] memory balances = new uint256[](count);
        uint256[] memory failed = new uint256[]((count + 255) / 256);
        for (uint256 h = 0; h < holders.length; h++) {
            for (uint256 t = 0; t < tokens.length; t++) {
                uint256 i = h * tokens.length + t;
                (bool ok, uint256 amount) = TokenOps.tryBalanceOf(tokens[t], holders[h]);
                if (ok) balances[i] = amount;
                else failed[i / 256] |= 1 << (i % 256);
            }
        }
        bytes memory out = abi.encode(balances, failed);
        assembly ("memory-safe") {
            return(add(out, 0x20), mload(out))
        }
    }
}
