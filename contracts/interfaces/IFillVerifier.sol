// SPDX-License-Identifier: MIT
pragma solidity ^0.8.26;

/// @title Decides whether a destination fill happened, for the origin settler.
/// @notice Replaceable: an attester signature today, a bridge message or an oracle later.
interface IFillVerifier {
    /// @notice Whether `orderId` was filled on `destChainId` by `destSettler`, repaying `repaymentAddr`.
    /// @param destChainId The destination chain.
    /// @param destSettler The destination settler on that chain.
    /// @param orderId The order id (computed on the origin).
    /// @param repaymentAddr Where the origin settler will pay the filler.
    /// @param proof Verifier-specific proof (AttestedFillVerifier: abi.encode(filler, signature)).
    /// @return valid True when the proof is valid.
    /// @return filler The filler the proof names (meaningful only when valid).
    function verifyFill(
        uint256 destChainId,
        address destSettler,
        bytes32 orderId,
        address repaymentAddr,
        bytes calldata proof
    ) external view returns (bool valid, address filler);
}
