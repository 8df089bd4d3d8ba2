// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {ERC20Permit} from "@openzeppelin/contracts/token/ERC20/extensions/ERC20Permit.sol";
import {ERC3009} from "@openzeppelin/contracts/token/ERC20/extensions/draft-ERC3009.sol";

/// @title DevUSDC: a USDC-like devnet token (6 decimals, EIP-2612 permit, EIP-3009 authorizations).
/// @notice DEVNET ONLY: `mint` is an open faucet, anyone can mint any amount.
/// @dev Uses OZ's ERC3009 base (random bytes32 nonces, like Circle's USDC) rather than
/// ERC20TransferAuthorization, whose keyed sequential nonces differ from USDC's.
contract DevUSDC is ERC20, ERC20Permit, ERC3009 {
    constructor() ERC20("USD Coin (devnet)", "USDC") ERC20Permit("USD Coin (devnet)") {}

    /// @notice Open faucet (devnet only): mints `amount` base units to `to`.
    /// @param to The recipient.
    /// @param amount The amount in base units (6 decimals).
    function mint(address to, uint256 amount) external {
        _mint(to, amount);
    }

    /// @notice USDC has 6 decimals.
    /// @return 6.
    function decimals() public pure override returns (uint8) {
        return 6;
    }
}
